/* guestcpu: prints the CPUID leaves a program sees, one line per leaf and
 * subleaf: "<leaf>.<subleaf> <eax> <ebx> <ecx> <edx>" in hex. Run under
 * Valgrind, it shows the CPU Valgrind presents to the counted server, whose
 * glibc picks its string and memory routines (ifuncs) and their size
 * thresholds by these leaves.
 */
#include <cpuid.h>
#include <stdio.h>

static void leaf(unsigned l, unsigned sub) {
    unsigned a, b, c, d;
    __cpuid_count(l, sub, a, b, c, d);
    printf("%x.%x %08x %08x %08x %08x\n", l, sub, a, b, c, d);
}

int main(void) {
    unsigned max = __get_cpuid_max(0, 0), ext = __get_cpuid_max(0x80000000, 0);
    leaf(0, 0);
    if (max >= 1) leaf(1, 0);
    if (max >= 2) leaf(2, 0);
    /* Deterministic cache parameters: one subleaf per cache, until type 0. */
    for (unsigned i = 0; max >= 4 && i < 16; i++) {
        unsigned a, b, c, d;
        __cpuid_count(4, i, a, b, c, d);
        if ((a & 0x1f) == 0) break;
        leaf(4, i);
    }
    if (max >= 7) leaf(7, 0);
    leaf(0x80000000, 0);
    if (ext >= 0x80000001) leaf(0x80000001, 0);
    if (ext >= 0x80000006) leaf(0x80000006, 0);
    return 0;
}
