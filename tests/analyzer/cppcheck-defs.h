/*
 * cppcheck-defs.h - macros of system headers that cppcheck does not read
 * (it analyses without system includes), forced in with --include so the
 * files that use them are checked rather than skipped as "unknown macro".
 * cppcheck cannot parse _Generic, so vec.h's size_t type check is a plain &.
 */
#define VEC_SIZE_PTR(x) (&(x))
#define json_array_foreach(array, index, value)                                \
	for (index = 0; index < json_array_size(array) &&                      \
			(value = json_array_get(array, index));                \
	     index++)
#define json_object_foreach(object, key, value)                                \
	for (key = json_object_iter_key(json_object_iter(object));              \
	     key && (value = json_object_iter_value(                            \
			     json_object_key_to_iter(key)));                    \
	     key = json_object_iter_key(json_object_iter_next(                  \
		     object, json_object_key_to_iter(key))))
