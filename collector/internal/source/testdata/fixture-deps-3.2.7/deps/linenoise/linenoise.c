/* fixture: stands in for linenoise.c */
