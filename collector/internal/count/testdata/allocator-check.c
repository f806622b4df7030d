/* allocator-check: stands in for a server linked with jemalloc 4.x (built
 * with -rdynamic, as Redis is), run with freezeclock.so preloaded
 * (freezeclock_test.go); prints the allocator state the preload left. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool je_in_valgrind;
bool je_opt_tcache;
static int started;
static bool thread_tcache;

/* jemalloc sets in_valgrind when it starts under Valgrind. */
void *je_malloc(size_t n) {
    if (!started++) je_in_valgrind = true;
    return malloc(n);
}
void je_free(void *p) { free(p); }
int je_mallctl(const char *name, void *old, size_t *oldlen, void *new, size_t newlen) {
    (void)old, (void)oldlen;
    if (strcmp(name, "thread.tcache.enabled") == 0 && newlen == sizeof(bool)) thread_tcache = *(bool *)new;
    return 0;
}

int main(void) {
    printf("started %d in_valgrind %d opt.tcache %d thread.tcache.enabled %d\n", started, je_in_valgrind, je_opt_tcache, thread_tcache);
    return 0;
}
