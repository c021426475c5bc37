# cocci/cocci.mk — build rules for cocci/ (included by the top-level Makefile).
#
#   make cocci-convert TREE=DIR   convert DIR in place with the semantic patches
#                                 (spatch alone: the facts pass over DIR, then
#                                 the conversion), then list legacy calls left
#   make install                  copies the patches to $(PREFIX)/share/blkmig/cocci

COCCI_DIR   := $(TOP)/cocci
COCCI_FILES := $(COCCI_DIR)/blkmig_facts.cocci $(COCCI_DIR)/blk_end_request.cocci \
	$(COCCI_DIR)/blkmig.h $(COCCI_DIR)/ORDER $(COCCI_DIR)/README.md
COCCI_TOOLS := $(COCCI_DIR)/blkmig-cocci-convert $(COCCI_DIR)/blkmig-leftovers
COCCI_JOBS  ?= 1

.PHONY: cocci-convert install-cocci

cocci-convert:
	@test -n "$(TREE)" || { echo "usage: make cocci-convert TREE=DIR" >&2; exit 2; }
	@COCCI_JOBS=$(COCCI_JOBS) $(COCCI_DIR)/blkmig-cocci-convert $(TREE)

install-cocci:
	install -d $(DESTDIR)$(PREFIX)/share/blkmig/cocci
	install -m 0644 $(COCCI_FILES) $(DESTDIR)$(PREFIX)/share/blkmig/cocci/
	install -m 0755 $(COCCI_TOOLS) $(DESTDIR)$(PREFIX)/share/blkmig/cocci/

INSTALL_STEPS += install-cocci

# Developers: after editing cocci/src/*.cocci (or the callback template),
# regenerate the committed, self-contained patch (the cocci suite checks it).
.PHONY: cocci-assemble
cocci-assemble:
	python3 $(COCCI_DIR)/gen_callback_rules.py
	python3 $(COCCI_DIR)/assemble.py
