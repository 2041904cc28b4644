/* Classifies one Thumb instruction of an Armv8.1-M core: Helium (MVE) vector
 * instruction or not, and low-overhead-loop end branch (LE/LETP) or not.
 * From the encoding tables of the Armv8.1-M architecture manual:
 *  - 32-bit instructions whose first halfword is 111x 11xx sit in the coprocessor /
 *    floating-point / vector space. On an M-profile core without custom coprocessors:
 *      111x 1111 ....            vector data processing: MVE only (there is no Neon)
 *      coprocessor field 111x    (bits 11:8 of the 2nd halfword = 0xE or 0xF): MVE
 *                                (loads/stores, VPT/VPST, multiply-accumulate, shifts...)
 *      coprocessor field 1011 with bit 4 set, first halfword 1110 1110: moves between
 *                                a core register and a vector lane, VDUP (MVE; the
 *                                32-bit lane form shares its encoding with the FP64
 *                                "VMOV Dd[x], Rt", counted as MVE too)
 *      VMRS/VMSR of VPR or P0:   the predication registers (MVE only)
 *    everything else there (coprocessor 1010/1011) is scalar floating point.
 *  - VCTP (create vector tail predicate) lives in the branch/misc-control space.
 * MVE's scalar long shifts (ASRL, LSLL, SQRSHR, ...) and the loop instructions
 * (DLSTP, WLSTP, LETP) touch no vector register and are not counted as MVE. */
#ifndef TA_MVE_CLASSIFY_H
#define TA_MVE_CLASSIFY_H

#include <stdbool.h>
#include <stdint.h>

/* True when hw1 (the first halfword, in fetch order) starts a 32-bit instruction. */
static inline bool thumb_is_32bit(uint16_t hw1) { return (hw1 & 0xE000u) == 0xE000u && (hw1 & 0x1800u) != 0; }

static inline bool thumb_is_mve(uint16_t hw1, uint16_t hw2) {
  if ((hw1 & 0xEC00u) == 0xEC00u) {
    unsigned coproc = (hw2 >> 8) & 0xFu;
    if ((hw1 & 0xEF00u) == 0xEF00u) return true;
    if (coproc == 0xEu || coproc == 0xFu) return true;
    if (coproc == 0xBu && (hw1 & 0xFF00u) == 0xEE00u && (hw2 & 0x001Fu) == 0x0010u) return true;
    if (coproc == 0xAu && (hw1 & 0xFFEEu) == 0xEEECu && (hw2 & 0x0FFFu) == 0x0A10u) return true;
    return false;
  }
  return (hw1 & 0xFFC0u) == 0xF000u && hw2 == 0xE801u; /* VCTP */
}

/* LE / LETP: the loop-end branch a low-overhead loop executes once per iteration. */
static inline bool thumb_is_loop_end(uint16_t hw1, uint16_t hw2) {
  return (hw1 & 0xFFCFu) == 0xF00Fu && (hw2 & 0xF001u) == 0xC001u;
}

#endif
