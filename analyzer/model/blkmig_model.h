/* blkmig_model.h - placeholder */
