/* Cycle timing model of Cortex-M4 and Cortex-M55 for the instruction-counting plugin
 * (docs/cycles.md has the rules, their sources, the fitted parameters and the limits).
 *
 * Two halves:
 *  - tm_decode(): classifies one Thumb-2 / Armv7E-M / Armv8.1-M instruction from its
 *    encoding, once, at translation time: its class (ALU, multiply, divide, load/store
 *    single / double / multiple, branch, IT, VFP, MVE load/store / integer / multiply /
 *    reduction, low-overhead loop), the core and vector registers it reads and writes,
 *    its register count (LDM/STM/PUSH/POP/VLDM).
 *  - tm_m4_step() / tm_m55_step(): advance a per-core pipeline state by one executed
 *    instruction (the plugin calls them in order, with the next executed PC telling a
 *    taken branch from a fall-through) and tm_mem_stall() adds the wait states of a
 *    data access. All integer arithmetic: deterministic.
 * Header-only so that timing_test.c checks the very code the plugin runs. */
#ifndef TA_TIMING_H
#define TA_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mve_classify.h"

enum tm_class {
  TC_ALU,      /* data processing, moves, extends, saturating, SIMD add/sub, CLZ, REV, CSEL... */
  TC_MUL,      /* MUL/MLA/MLS, SMULxy/SMLAxy, SMLAD/SMUAD, SMMUL, SMULL/UMULL/SMLAL/UMLAL/SMLALD/UMAAL */
  TC_DIV,      /* SDIV/UDIV */
  TC_LOAD,     /* LDR/LDRB/LDRH/LDRSB/LDRSH (any addressing), LDREX */
  TC_STORE,    /* STR/STRB/STRH, STREX */
  TC_LOADD,    /* LDRD */
  TC_STORED,   /* STRD */
  TC_LDM,      /* LDM/POP (nregs) */
  TC_STM,      /* STM/PUSH (nregs) */
  TC_BRANCH,   /* B/BL/BX/BLX/B<cond>/CBZ/CBNZ, TBB/TBH, MOV/ADD/LDR to PC */
  TC_IT,       /* IT */
  TC_NOP,      /* NOP, hints, barriers, CPS, MSR/MRS */
  TC_VFP,      /* scalar FP: VADD/VSUB/VMUL/VNEG/VABS/VCVT/VCMP/VMOV/VMRS */
  TC_VFP_MAC,  /* VMLA/VMLS/VNMLA/VFMA/VFMS (chained multiply-accumulate) */
  TC_VFP_DIV,  /* VDIV/VSQRT */
  TC_VFP_LOAD, /* VLDR (S/D) */
  TC_VFP_STORE,/* VSTR (S/D) */
  TC_VFP_LDM,  /* VLDM/VPOP (nregs words) */
  TC_VFP_STM,  /* VSTM/VPUSH (nregs words) */
  TC_MVE_LOAD, /* VLDRx / VLD2x / VLD4x / gathers */
  TC_MVE_STORE,/* VSTRx / VST2x / VST4x / scatters */
  TC_MVE_INT,  /* vector integer ALU, shifts, moves, compares, VDUP, lane moves */
  TC_MVE_MUL,  /* vector multiply / multiply-accumulate / FP */
  TC_MVE_RED,  /* across-vector reductions into core registers: VMLADAV/VMLALDAV/VADDV/VMAXV... */
  TC_MVE_PRED, /* VPST/VPT/VCTP: predication set-up */
  TC_LOB_START,/* DLS/WLS/DLSTP/WLSTP */
  TC_LOB_END,  /* LE/LETP */
  TC_COUNT
};

enum { TF_COND = 1, TF_32BIT = 2, TF_WRITES_PC = 4, TF_ACCUM = 8, TF_DOUBLE = 16, TF_GATHER = 32, TF_LOADS_PC = 64 };

typedef struct tm_insn {
  uint32_t pc;
  uint16_t hw1, hw2; /* the encoding (hw2 0 for a 16-bit instruction) */
  uint8_t size;   /* 2 or 4 */
  uint8_t cls;    /* enum tm_class */
  uint8_t flags;  /* TF_* */
  uint8_t nregs;  /* registers (words) moved by LDM/STM/VLDM/VSTM */
  uint16_t src, dst; /* core registers r0..r15 read / written (bit n = rn) */
  uint8_t qsrc, qdst; /* vector registers q0..q7 read / written */
} tm_insn;

static inline unsigned tm_popcount16(unsigned v) {
  unsigned n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

#define TM_R(n) ((uint16_t)(1u << ((n) & 15u)))
#define TM_Q(n) ((uint8_t)(1u << ((n) & 7u)))

/* ---- 16-bit instructions ---------------------------------------------------------- */
static void tm_decode16(uint16_t h, tm_insn *d) {
  unsigned op = h >> 10;
  d->cls = TC_ALU;
  if ((h & 0xC000u) == 0x0000u) { /* shift imm, add/sub, mov/cmp/add/sub imm8 */
    if ((h & 0xF800u) == 0x1800u) { /* add/sub reg/imm3 */
      d->dst = TM_R(h & 7);
      d->src = TM_R((h >> 3) & 7) | ((h & 0x0400u) ? 0 : TM_R((h >> 6) & 7));
    } else if ((h & 0xE000u) == 0x2000u) { /* mov/cmp/add/sub imm8 */
      unsigned rd = (h >> 8) & 7, o = (h >> 11) & 3;
      d->dst = o == 1 ? 0 : TM_R(rd);
      d->src = o == 0 ? 0 : TM_R(rd);
    } else { /* lsl/lsr/asr imm */
      d->dst = TM_R(h & 7);
      d->src = TM_R((h >> 3) & 7);
    }
    return;
  }
  if (op == 0x10) { /* data processing register */
    unsigned o = (h >> 6) & 15, rdn = h & 7, rm = (h >> 3) & 7;
    d->src = TM_R(rdn) | TM_R(rm);
    d->dst = (o == 8 || o == 10 || o == 11) ? 0 : TM_R(rdn); /* TST, CMP, CMN */
    if (o == 9) d->src = TM_R(rm);                           /* RSB #0 */
    if (o == 13) d->cls = TC_MUL;                            /* MULS */
    return;
  }
  if (op == 0x11) { /* special data processing, BX/BLX */
    unsigned o = (h >> 8) & 3, rdn = (h & 7) | ((h >> 4) & 8), rm = (h >> 3) & 15;
    if (o == 3) {
      d->cls = TC_BRANCH;
      d->flags |= TF_WRITES_PC;
      d->src = TM_R(rm);
      if (h & 0x80u) d->dst = TM_R(14);
      return;
    }
    d->src = TM_R(rm) | (o == 2 ? 0 : TM_R(rdn));
    d->dst = o == 1 ? 0 : TM_R(rdn);
    if (rdn == 15 && o != 1) {
      d->cls = TC_BRANCH;
      d->flags |= TF_WRITES_PC;
    }
    return;
  }
  if ((h & 0xF800u) == 0x4800u) { /* LDR literal */
    d->cls = TC_LOAD;
    d->dst = TM_R((h >> 8) & 7);
    d->src = TM_R(15);
    return;
  }
  if ((h & 0xF000u) == 0x5000u) { /* load/store register offset */
    unsigned o = (h >> 9) & 7;
    d->src = TM_R((h >> 3) & 7) | TM_R((h >> 6) & 7);
    if (o <= 2) {
      d->cls = TC_STORE;
      d->src |= TM_R(h & 7);
    } else {
      d->cls = TC_LOAD;
      d->dst = TM_R(h & 7);
    }
    return;
  }
  if ((h & 0xE000u) == 0x6000u || (h & 0xF000u) == 0x8000u) { /* load/store imm5 */
    bool load = (h & 0x0800u) != 0;
    d->cls = load ? TC_LOAD : TC_STORE;
    d->src = TM_R((h >> 3) & 7) | (load ? 0 : TM_R(h & 7));
    d->dst = load ? TM_R(h & 7) : 0;
    return;
  }
  if ((h & 0xF000u) == 0x9000u) { /* SP-relative load/store */
    bool load = (h & 0x0800u) != 0;
    unsigned rt = (h >> 8) & 7;
    d->cls = load ? TC_LOAD : TC_STORE;
    d->src = TM_R(13) | (load ? 0 : TM_R(rt));
    d->dst = load ? TM_R(rt) : 0;
    return;
  }
  if ((h & 0xF000u) == 0xA000u) { /* ADR, ADD rd, SP, #imm */
    d->dst = TM_R((h >> 8) & 7);
    d->src = (h & 0x0800u) ? TM_R(13) : TM_R(15);
    return;
  }
  if ((h & 0xF000u) == 0xB000u) { /* miscellaneous */
    if ((h & 0x0F00u) == 0x0F00u) {
      d->cls = (h & 0x000Fu) ? TC_IT : TC_NOP;
      return;
    }
    if ((h & 0x0600u) == 0x0400u) { /* PUSH / POP */
      bool pop = (h & 0x0800u) != 0;
      unsigned list = h & 0xFFu;
      d->nregs = (uint8_t)(tm_popcount16(list) + ((h & 0x100u) ? 1 : 0));
      d->src = TM_R(13);
      d->dst = TM_R(13);
      if (pop) {
        d->cls = TC_LDM;
        d->dst |= (uint16_t)list | ((h & 0x100u) ? TM_R(15) : 0);
        if (h & 0x100u) d->flags |= TF_WRITES_PC;
      } else {
        d->cls = TC_STM;
        d->src |= (uint16_t)list | ((h & 0x100u) ? TM_R(14) : 0);
      }
      return;
    }
    if ((h & 0x0500u) == 0x0100u) { /* CBZ/CBNZ */
      d->cls = TC_BRANCH;
      d->flags |= TF_COND;
      d->src = TM_R(h & 7);
      return;
    }
    if ((h & 0x0F00u) == 0x0000u) { /* ADD/SUB SP, SP, #imm */
      d->src = d->dst = TM_R(13);
      return;
    }
    if ((h & 0x0F00u) == 0x0200u || (h & 0x0F00u) == 0x0A00u) { /* extend, REV */
      d->dst = TM_R(h & 7);
      d->src = TM_R((h >> 3) & 7);
      return;
    }
    d->cls = TC_NOP; /* CPS, BKPT, hints */
    return;
  }
  if ((h & 0xF000u) == 0xC000u) { /* LDM/STM */
    bool load = (h & 0x0800u) != 0;
    unsigned rn = (h >> 8) & 7, list = h & 0xFFu;
    d->cls = load ? TC_LDM : TC_STM;
    d->nregs = (uint8_t)tm_popcount16(list);
    d->src = TM_R(rn) | (load ? 0 : (uint16_t)list);
    d->dst = load ? (uint16_t)list : TM_R(rn);
    return;
  }
  if ((h & 0xF000u) == 0xD000u) { /* B<cond>, SVC, UDF */
    unsigned cond = (h >> 8) & 15;
    d->cls = cond >= 14 ? TC_NOP : TC_BRANCH;
    if (cond < 14) d->flags |= TF_COND;
    return;
  }
  if ((h & 0xF800u) == 0xE000u) { /* B */
    d->cls = TC_BRANCH;
    return;
  }
  d->cls = TC_NOP;
}

/* ---- 32-bit: coprocessor / FP / MVE space (first halfword 111x 11xx) --------------- */
static void tm_decode_vector(uint16_t h1, uint16_t h2, tm_insn *d) {
  unsigned coproc = (h2 >> 8) & 15;
  bool mve = thumb_is_mve(h1, h2);
  bool ldst_space = (h1 & 0xEE00u) == 0xEC00u;
  unsigned rn = h1 & 15;
  if (!mve) { /* scalar floating point (coprocessor 10/11) */
    bool dbl = coproc == 0xB;
    if (dbl) d->flags |= TF_DOUBLE;
    if (ldst_space) {
      bool load = (h1 & 0x0010u) != 0;
      if ((h1 & 0xFFE0u) == 0xEC40u) { /* VMOV two core registers <-> D/S pair */
        d->cls = TC_VFP;
        if (load) d->dst = TM_R(h2 >> 12) | TM_R(rn);
        else d->src = TM_R(h2 >> 12) | TM_R(rn);
        return;
      }
      d->src = TM_R(rn);
      if ((h1 & 0x0120u) == 0x0100u) { /* VLDR/VSTR: P=1, W=0 */
        d->cls = load ? TC_VFP_LOAD : TC_VFP_STORE;
        d->nregs = dbl ? 2 : 1;
        return;
      }
      d->cls = load ? TC_VFP_LDM : TC_VFP_STM;
      d->nregs = (uint8_t)(h2 & 0xFFu); /* imm8 counts words */
      if (h1 & 0x0020u) d->dst = TM_R(rn);
      return;
    }
    if ((h1 & 0xFF00u) == 0xEE00u && (h2 & 0x0010u)) { /* VMOV core<->S, VMRS/VMSR */
      d->cls = TC_VFP;
      unsigned rt = h2 >> 12;
      if (h1 & 0x0010u) d->dst = rt == 15 ? 0 : TM_R(rt);
      else d->src = TM_R(rt);
      return;
    }
    /* data processing: opc1 (h1 bits 7,5,4), opc3 (h2 bit 6) */
    unsigned opc1 = ((h1 >> 5) & 4) | ((h1 >> 4) & 3);
    if ((h1 & 0xFF00u) == 0xFE00u) d->cls = TC_VFP;  /* VSEL, VMAXNM/VMINNM, VRINT: single-cycle */
    else if (opc1 == 0 || opc1 == 1) d->cls = TC_VFP_MAC; /* VMLA/VMLS, VNMLA/VNMLS */
    else if (opc1 == 5 || opc1 == 6) d->cls = TC_VFP_MAC; /* VFNMA/VFNMS, VFMA/VFMS */
    else if (opc1 == 4) d->cls = TC_VFP_DIV;         /* VDIV */
    else if (opc1 == 7 && (h1 & 0x000Fu) == 1 && (h2 & 0x00C0u) == 0x00C0u)
      d->cls = TC_VFP_DIV; /* VSQRT */
    else d->cls = TC_VFP;
    return;
  }
  /* MVE */
  unsigned qd = (h2 >> 13) & 7, qn = (h1 >> 1) & 7, qm = (h2 >> 1) & 7;
  if ((h1 & 0xFFC0u) == 0xF000u) { /* VCTP */
    d->cls = TC_MVE_PRED;
    d->src = TM_R(rn);
    return;
  }
  if ((h1 & 0xFFE0u) == 0xEC00u) { /* VMOV two lanes <-> two core registers */
    d->cls = TC_MVE_INT;
    if (h1 & 0x0010u) {
      d->dst = TM_R(rn) | TM_R(h2 & 15);
      d->qsrc = TM_Q(qd);
    } else {
      d->src = TM_R(rn) | TM_R(h2 & 15);
      d->qdst = TM_Q(qd);
    }
    return;
  }
  if (ldst_space) {
    bool load = (h1 & 0x0010u) != 0;
    d->cls = load ? TC_MVE_LOAD : TC_MVE_STORE;
    d->src = TM_R(rn);
    if (h1 & 0x0020u) d->dst = TM_R(rn); /* writeback */
    if (load) d->qdst = TM_Q(qd);
    else d->qsrc = TM_Q(qd);
    if ((h1 & 0xFF00u) == 0xFC00u) { /* VLD2/VLD4/VST2/VST4: several registers */
      unsigned n = (h2 & 1u) ? 4 : 2;
      uint8_t m = (uint8_t)(((1u << n) - 1) << qd);
      if (load) d->qdst = m;
      else d->qsrc = m;
    }
    if ((h1 & 0x0120u) == 0 && (h2 & 0x1000u) == 0 && (h1 & 0xFF00u) != 0xFC00u + 0x100u) {
      /* gather/scatter with a vector of offsets, [Rn, Qm]: one element per cycle */
      d->qsrc |= TM_Q(qm);
      d->nregs = (uint8_t)(16u >> ((h2 >> 7) & 3u));
      d->flags |= TF_GATHER;
    }
    return;
  }
  if ((coproc == 0xB || coproc == 0xA) && (h1 & 0xFF00u) == 0xEE00u && (h2 & 0x0010u)) {
    /* VDUP, lane moves, VMSR/VMRS of P0/VPR */
    d->cls = TC_MVE_INT;
    unsigned rt = h2 >> 12;
    if (coproc == 0xA) {
      d->cls = TC_MVE_PRED;
      if (h1 & 0x0010u) d->dst = TM_R(rt);
      else d->src = TM_R(rt);
      return;
    }
    if (h1 & 0x0010u) { /* to core */
      d->dst = TM_R(rt);
      d->qsrc = TM_Q(qn);
    } else {
      d->src = TM_R(rt);
      d->qdst = TM_Q(qn);
    }
    return;
  }
  if ((h1 & 0xEFF0u) == 0xEE70u && (h2 & 0x0F01u) == 0x0F01u) { /* VPST / VPT */
    d->cls = TC_MVE_PRED;
    d->qsrc = TM_Q(qn) | TM_Q(qm);
    return;
  }
  bool ee = (h1 & 0xEF00u) == 0xEE00u;
  if (ee && (h1 & 0x0080u) && (h2 & 0x0E00u) == 0x0E00u && !(h2 & 0x0040u)) {
    /* reductions into RdaLo (and RdaHi for the long forms) */
    unsigned hi = (h1 >> 4) & 7;
    d->cls = TC_MVE_RED;
    d->dst = TM_R(qd * 2u) | (hi == 7 ? 0 : TM_R(hi * 2u + 1));
    d->qsrc = TM_Q(qm) | TM_Q(qn);
    /* the A forms accumulate into Rda: not a source here, the MAC forwards its own sum */
    if (h2 & 0x0020u) d->flags |= TF_ACCUM;
    return;
  }
  d->qdst = TM_Q(qd);
  d->qsrc = TM_Q(qn) | TM_Q(qm);
  d->cls = TC_MVE_INT;
  if (!ee) { /* 111x 1111: vector-vector data processing */
    unsigned o = (h2 >> 8) & 15;
    if ((o == 9 && (h2 & 0x10u)) || o == 0xB || o == 0xC || o == 0xD) d->cls = TC_MVE_MUL;
    if ((h1 & 0x0080u) && (h1 & 0x0030u) == 0x0030u) d->cls = TC_MVE_INT; /* two-register misc, VCVT */
    if ((h1 & 0x0080u) && (o == 0xC || o == 0xD) && (h1 & 0x0030u) == 0x0030u) d->cls = TC_MVE_MUL; /* FP misc */
    return;
  }
  /* 111x 1110 */
  if (coproc == 0xE && !(h1 & 0x0080u) && (h1 & 0x0030u) != 0x0030u) {
    d->cls = TC_MVE_MUL; /* VMLA/VMLAS/VMUL/VQDMULH/VQRDMULH (scalar), VMULH/VMULL/VRMULH/VQDMLADH */
    if (h2 & 0x0040u) d->src = TM_R(h2 & 15);
    if ((h2 & 0x0040u) && (h2 & 0x0031u) == 0) d->qsrc |= TM_Q(qd); /* VMLA/VMLAS accumulate in Qda */
    return;
  }
  if ((h2 & 0x0040u) && coproc == 0xF && !(h1 & 0x0080u)) d->src = TM_R(h2 & 15); /* vector-scalar forms */
  if (coproc == 0xE && (h1 & 0x0030u) == 0x0030u && (h2 & 0x0040u)) d->src = TM_R(h2 & 15); /* VSHL/VRSHL r */
}

/* ---- 32-bit instructions ---------------------------------------------------------- */
static void tm_decode32(uint16_t h1, uint16_t h2, tm_insn *d) {
  unsigned rn = h1 & 15, rt = h2 >> 12, rd = (h2 >> 8) & 15, rm = h2 & 15;
  d->flags |= TF_32BIT;
  d->cls = TC_ALU;
  if ((h1 & 0xFFC0u) == 0xF000u && h2 == 0xE801u) {
    d->cls = TC_MVE_PRED; /* VCTP */
    d->src = TM_R(rn);
    return;
  }
  if ((h1 & 0xEC00u) == 0xEC00u) {
    tm_decode_vector(h1, h2, d);
    return;
  }
  if ((h1 & 0xFE00u) == 0xE800u) { /* 1110 100x: LDM/STM, LDRD/STRD, LDREX/STREX, TBB/TBH */
    if ((h1 & 0x0040u) == 0) { /* LDM/STM (RFE/SRS not on M-profile) */
      bool load = (h1 & 0x0010u) != 0;
      uint16_t list = h2;
      d->cls = load ? TC_LDM : TC_STM;
      d->nregs = (uint8_t)tm_popcount16(list);
      d->src = TM_R(rn) | (load ? 0 : list);
      d->dst = (load ? list : 0) | ((h1 & 0x0020u) ? TM_R(rn) : 0);
      if (load && (list & 0x8000u)) d->flags |= TF_WRITES_PC;
      return;
    }
    if ((h1 & 0x0120u) == 0 && (h1 & 0x0080u) == 0) { /* LDREX/STREX */
      bool load = (h1 & 0x0010u) != 0;
      d->cls = load ? TC_LOAD : TC_STORE;
      d->src = TM_R(rn) | (load ? 0 : TM_R(rt));
      d->dst = load ? TM_R(rt) : TM_R(rd);
      return;
    }
    if ((h1 & 0x01A0u) == 0x0080u) { /* 1110 1000 110x: TBB/TBH, LDREXB/H, STREXB/H */
      unsigned op3 = (h2 >> 4) & 15;
      if ((h1 & 0x0010u) && (op3 == 0 || op3 == 1)) {
        d->cls = TC_BRANCH;
        d->flags |= TF_WRITES_PC | TF_LOADS_PC; /* TBB/TBH: the target comes from a table load */
        d->src = TM_R(rn) | TM_R(rm);
        return;
      }
      bool load = (h1 & 0x0010u) != 0;
      d->cls = load ? TC_LOAD : TC_STORE;
      d->src = TM_R(rn) | (load ? 0 : TM_R(rt));
      d->dst = load ? TM_R(rt) : TM_R(rm);
      return;
    }
    /* LDRD/STRD */
    bool load = (h1 & 0x0010u) != 0;
    d->cls = load ? TC_LOADD : TC_STORED;
    d->nregs = 2;
    d->src = TM_R(rn) | (load ? 0 : TM_R(rt) | TM_R(rd));
    d->dst = (load ? TM_R(rt) | TM_R(rd) : 0) | ((h1 & 0x0020u) ? TM_R(rn) : 0);
    return;
  }
  if ((h1 & 0xFE00u) == 0xEA00u) { /* data processing (shifted register) + MVE long shifts/CSEL */
    d->src = TM_R(rn) | TM_R(rm);
    d->dst = rd == 15 ? 0 : TM_R(rd); /* TST/TEQ/CMP/CMN */
    if ((h1 & 0xFFF0u) == 0xEA50u && (h2 & 0xC000u) == 0x8000u) { /* CSEL/CSINC/CSINV/CSNEG (Rn=PC: zero) */
      d->src = (rn == 15 ? 0 : TM_R(rn)) | (rm == 15 ? 0 : TM_R(rm));
      d->dst = TM_R(rd);
    } else if ((h1 & 0xFFF0u) == 0xEA50u && rn != 15 && (rm == 15 || rm == 13)) { /* MVE long shifts */
      uint16_t pair = TM_R(rn) | TM_R(((h2 >> 9) & 7u) * 2u + 1u);
      d->src = pair | (rm == 13 ? TM_R(rt) : 0);
      d->dst = pair;
    }
    return;
  }
  if ((h1 & 0xF800u) == 0xF000u && (h2 & 0x8000u) == 0) { /* data processing (immediate) */
    d->src = TM_R(rn);
    d->dst = TM_R(rd);
    if ((h1 & 0x0200u) == 0 && rd == 15) d->dst = 0; /* TST/TEQ/CMP/CMN #imm */
    if ((h1 & 0x0200u) && (h1 & 0x0170u) == 0x0040u) d->src = 0; /* MOVW/MOVT read Rd only for MOVT */
    if ((h1 & 0x03F0u) == 0x02C0u) d->src = TM_R(rd);             /* MOVT */
    return;
  }
  if ((h1 & 0xF800u) == 0xF000u) { /* branches, LOB, misc control */
    unsigned op1 = (h2 >> 12) & 7;
    /* low-overhead loops: 1111 0000 0xxx xxxx / 11x0 .... .... ...1 (BL has bit 12 set) */
    if ((h1 & 0xFF80u) == 0xF000u && (h2 & 0xD001u) == 0xC001u) {
      if (thumb_is_loop_end(h1, h2)) {
        d->cls = TC_LOB_END;
        d->flags |= TF_COND;
        d->src = d->dst = TM_R(14);
        return;
      }
      if ((h2 & 0xF001u) == 0xC001u || (h2 & 0xFFFFu) == 0xE001u) { /* WLS/WLSTP, DLS/DLSTP */
        d->cls = TC_LOB_START;
        d->src = TM_R(rn);
        d->dst = TM_R(14);
        if ((h2 & 0xF000u) == 0xC000u) d->flags |= TF_COND; /* WLS may skip the loop */
        if (h1 == 0xF00Fu) { /* LCTP */
          d->cls = TC_MVE_PRED;
          d->src = d->dst = 0;
          d->flags = TF_32BIT;
        }
        return;
      }
    }
    if ((op1 & 5) == 0) { /* B<cond>.W or misc control */
      if ((h1 & 0x0380u) != 0x0380u) {
        d->cls = TC_BRANCH;
        d->flags |= TF_COND;
        return;
      }
      d->cls = TC_NOP; /* MSR/MRS, barriers, hints */
      if ((h1 & 0xFFE0u) == 0xF3E0u) d->dst = TM_R(rd);
      else if ((h1 & 0xFFE0u) == 0xF380u) d->src = TM_R(rn);
      return;
    }
    d->cls = TC_BRANCH; /* B.W, BL */
    if (op1 & 4) d->dst = TM_R(14);
    return;
  }
  if ((h1 & 0xFE00u) == 0xF800u) { /* load/store single */
    bool load = (h1 & 0x0010u) != 0;
    d->cls = load ? TC_LOAD : TC_STORE;
    d->src = TM_R(rn);
    if ((h1 & 0x0080u) == 0 && (h2 & 0x0800u) == 0 && rn != 15) d->src |= TM_R(rm); /* register offset */
    if ((h1 & 0x0080u) == 0 && (h2 & 0x0900u) == 0x0900u) d->dst = TM_R(rn);    /* writeback */
    if (load) {
      if (rt == 15) {
        if ((h1 & 0x0060u) == 0x0040u) {
          d->cls = TC_BRANCH;
          d->flags |= TF_WRITES_PC | TF_LOADS_PC; /* LDR PC, ... */
        } else d->cls = TC_NOP; /* PLD/PLI */
      } else d->dst |= TM_R(rt);
    } else d->src |= TM_R(rt);
    return;
  }
  if ((h1 & 0xFF00u) == 0xFA00u) { /* data processing (register): shifts, extends, SIMD, misc */
    d->src = TM_R(rn) | TM_R(rm);
    d->dst = TM_R(rd);
    return;
  }
  if ((h1 & 0xFF80u) == 0xFB00u) { /* multiply, multiply-accumulate, absolute difference */
    d->cls = TC_MUL;
    if ((h1 & 0x0070u) == 0x0070u && rt == 15) d->cls = TC_ALU; /* USAD8 */
    d->src = TM_R(rn) | TM_R(rm) | (rt == 15 ? 0 : TM_R(rt));
    d->dst = TM_R(rd);
    return;
  }
  if ((h1 & 0xFF80u) == 0xFB80u) { /* long multiply, divide */
    unsigned op1 = (h1 >> 4) & 7, op2 = (h2 >> 4) & 15;
    if ((op1 == 1 || op1 == 3) && op2 == 15) {
      d->cls = TC_DIV;
      d->src = TM_R(rn) | TM_R(rm);
      d->dst = TM_R(rd);
      return;
    }
    d->cls = TC_MUL;
    d->src = TM_R(rn) | TM_R(rm);
    d->dst = TM_R(rt) | TM_R(rd);
    if (op1 >= 4) d->src |= TM_R(rt) | TM_R(rd); /* accumulating forms */
    return;
  }
  /* coprocessor space handled above; anything else: a plain ALU operation */
}

/* Decodes the instruction at pc from its first (hw1) and, when 32-bit, second halfword. */
static inline tm_insn tm_decode(uint32_t pc, uint16_t hw1, uint16_t hw2) {
  tm_insn d;
  memset(&d, 0, sizeof d);
  d.pc = pc;
  d.hw1 = hw1;
  if (thumb_is_32bit(hw1)) {
    d.hw2 = hw2;
    d.size = 4;
    tm_decode32(hw1, hw2, &d);
  } else {
    d.size = 2;
    tm_decode16(hw1, &d);
  }
  if (d.dst & TM_R(15)) d.flags |= TF_WRITES_PC;
  if (d.flags & TF_WRITES_PC) d.cls = d.cls == TC_LDM ? TC_LDM : TC_BRANCH;
  d.src &= (uint16_t)~TM_R(15);
  d.dst &= (uint16_t)~TM_R(15);
  return d;
}

static inline bool tm_is_branch(const tm_insn *d) {
  return d->cls == TC_BRANCH || d->cls == TC_LOB_END || (d->cls == TC_LOB_START && (d->flags & TF_COND)) ||
         (d->flags & TF_WRITES_PC);
}

/* ---- timing parameters ------------------------------------------------------------ */
typedef struct tm_params {
  unsigned branch_refill;   /* P: cycles to refill the pipeline after a taken branch */
  unsigned div_cycles;      /* SDIV/UDIV: operand values unavailable to the plugin (API v1) */
  unsigned load_latency;    /* M55: cycles from a scalar load's issue until its result can be used */
  unsigned mul_latency;     /* M55: cycles from a scalar multiply's issue until its result can be used */
  unsigned red_latency;     /* M55: vector reduction -> core register consumer */
  unsigned vmul_latency;    /* M55: vector multiply result -> dependent vector instruction */
  unsigned dual_issue;      /* M55: pair two adjacent independent 16-bit instructions (1: ALU, 2: + load/store) */
  unsigned gather_rate;     /* M55: elements per cycle of a gather load / scatter store */
  unsigned load_alu_latency; /* M55: load -> simple ALU consumer (forwarded; others wait load_latency) */
  unsigned pred_beats;      /* M55: VPST/VPT/VCTP/VMSR P0 run in the vector integer pipe (1) or not (0) */
  unsigned fetch_split;     /* M55: +1 refill cycle for a 32-bit branch target straddling a 64-bit fetch */
  unsigned it_fold_wide;    /* M55: IT also folds onto a preceding 32-bit instruction */
} tm_params;

/* Cortex-M4 TRM, "Instruction set summary" (cycle counts), with P = 1 + (target is a
 * 32-bit instruction that is not word-aligned); the fixed figures here need no fitting. */
static inline tm_params tm_m4_defaults(void) {
  tm_params p = {1, 7, 2, 1, 0, 0, 0, 1, 2, 0, 0, 0};
  return p;
}

/* Cortex-M55: the values left open by the manuals were fitted on the calibration set
 * (docs/cycles.md, "Fitted parameters"). */
static inline tm_params tm_m55_defaults(void) {
  tm_params p = {1, 7, 2, 1, 3, 1, 2, 2, 2, 0, 0, 1};
  return p;
}

/* ---- pipeline state --------------------------------------------------------------- */
enum tm_unit { TU_NONE, TU_ALU, TU_LSU, TU_VINT, TU_VMUL, TU_COUNT };

typedef struct tm_state {
  tm_params p;
  uint64_t cycle;           /* issue cycle of the last instruction (M55) / cycles so far (M4) */
  uint64_t next_issue;      /* earliest issue cycle of the next instruction */
  uint64_t unit_free[TU_COUNT];
  uint64_t reg_ready[16];   /* for consumers that need the operand early (address, multiply) */
  uint64_t alu_ready[16];   /* for simple ALU consumers (a loaded value is forwarded to them sooner) */
  uint64_t q_ready[8];
  tm_insn prev;             /* the previously executed instruction */
  bool have_prev, prev_paired;
  bool loop_primed;         /* a low-overhead loop has run its first iteration (loop cache hit) */
  uint32_t loop_start;      /* target of the primed LE */
  uint64_t branches_taken, stall_cycles;
} tm_state;

static inline void tm_init(tm_state *s, tm_params p) {
  memset(s, 0, sizeof *s);
  s->p = p;
}

/* Was the previously executed instruction a branch that was taken (pc is where execution went)? */
static inline bool tm_prev_taken(const tm_state *s, uint32_t pc) {
  return s->have_prev && tm_is_branch(&s->prev) && pc != s->prev.pc + s->prev.size;
}

/* ---- Cortex-M4 -------------------------------------------------------------------- */
/* Cycles of the previous instruction once its successor (at pc) is known: the M4 is a
 * 3-stage in-order pipeline, one instruction at a time, so the count is a sum. */
static inline unsigned tm_m4_refill(const tm_state *s, const tm_insn *target) {
  return s->p.branch_refill + ((target->size == 4 && (target->pc & 2)) ? 1u : 0u);
}

static inline unsigned tm_m4_cost(tm_state *s, const tm_insn *d) {
  const tm_insn *q = s->have_prev ? &s->prev : NULL;
  bool after_mem = q && (q->cls == TC_LOAD || q->cls == TC_STORE || q->cls == TC_VFP_LOAD || q->cls == TC_VFP_STORE);
  bool addr_dep = q && (q->cls == TC_LOAD || q->cls == TC_VFP_LOAD) && (d->src & q->dst);
  switch (d->cls) {
  case TC_LOAD:
  case TC_STORE:
  case TC_VFP_LOAD:
  case TC_VFP_STORE: /* 2, or 1 pipelined behind a load/store it does not depend on */
    return (after_mem && !addr_dep) ? 1u + (d->nregs == 2 ? 1u : 0u) : 2u + (d->nregs == 2 ? 1u : 0u);
  case TC_LOADD:
  case TC_STORED: return 3; /* 1 + 2 */
  case TC_LDM:
  case TC_STM:
  case TC_VFP_LDM:
  case TC_VFP_STM: return 1u + d->nregs;
  case TC_DIV: return s->p.div_cycles;
  case TC_IT: /* folded onto a preceding 16-bit instruction */
    return (q && q->size == 2 && !tm_is_branch(q)) ? 0u : 1u;
  case TC_VFP_MAC: return 3;
  case TC_VFP_DIV: return 14;
  case TC_VFP: return (d->flags & TF_DOUBLE) ? 2u : 1u;
  case TC_BRANCH: return (d->flags & TF_LOADS_PC) ? 2u : 1u; /* TBB/TBH, LDR PC: 2 + P */
  default: return 1; /* ALU, MUL-class (single-cycle MAC), branches before refill, NOP */
  }
}

/* Executes d on the M4 model; returns the cycle count after the instructions before d. */
static inline uint64_t tm_m4_step(tm_state *s, const tm_insn *d) {
  if (tm_prev_taken(s, d->pc)) {
    s->cycle += tm_m4_refill(s, d);
    s->branches_taken++;
  }
  uint64_t at = s->cycle;
  s->cycle += tm_m4_cost(s, d);
  s->prev = *d;
  s->have_prev = true;
  return at;
}

/* ---- Cortex-M55 ------------------------------------------------------------------- */
static inline unsigned tm_m55_unit(const tm_insn *d, unsigned pred_unit) {
  switch (d->cls) {
  case TC_LOAD: case TC_STORE: case TC_LOADD: case TC_STORED: case TC_LDM: case TC_STM:
  case TC_VFP_LOAD: case TC_VFP_STORE: case TC_VFP_LDM: case TC_VFP_STM:
  case TC_MVE_LOAD: case TC_MVE_STORE: return TU_LSU;
  case TC_MVE_INT: return TU_VINT;
  case TC_MVE_PRED: return pred_unit; /* the vector pipe when pred_beats, else the scalar ALU */
  case TC_MVE_MUL: case TC_MVE_RED: case TC_VFP_MAC: case TC_VFP_DIV: return TU_VMUL;
  default: return TU_ALU;
  }
}

static inline uint64_t tm_max(uint64_t a, uint64_t b) { return a > b ? a : b; }

static inline bool tm_m55_simple(const tm_insn *d, bool memory) {
  return d->cls == TC_ALU || d->cls == TC_IT || d->cls == TC_NOP ||
         (memory && (d->cls == TC_LOAD || d->cls == TC_STORE));
}

/* May d issue in the same cycle as a (the instruction before it)? An IT instruction folds
 * onto a preceding 16-bit instruction (as on the M4); with dual_issue, two adjacent
 * 16-bit instructions, simple ALU ones (dual_issue 1) or one of them a single load/store
 * (dual_issue 2), pair when the second neither reads nor writes what the first writes. */
static inline bool tm_m55_pairs(const tm_params *p, const tm_insn *a, const tm_insn *d) {
  if (d->cls == TC_IT && !tm_is_branch(a) && (a->size == 2 || p->it_fold_wide)) return true;
  if ((a->size != 2 && p->dual_issue < 4) || tm_is_branch(a)) return false;
  if (!p->dual_issue || (d->size != 2 && p->dual_issue < 3)) return false;
  bool mem_a = a->cls == TC_LOAD || a->cls == TC_STORE, mem_d = d->cls == TC_LOAD || d->cls == TC_STORE;
  if (mem_a && mem_d) return false;
  if (!tm_m55_simple(a, p->dual_issue >= 2) || !tm_m55_simple(d, p->dual_issue >= 2)) return false;
  return !(d->src & a->dst) && !(d->dst & a->dst);
}

/* Executes d on the M55 model; returns its issue cycle. One instruction issues per cycle
 * (two adjacent independent 16-bit ALU ones when dual_issue is on); an instruction waits
 * for its source registers and for its execution unit; an MVE instruction of 4 beats
 * holds its unit for 2 cycles (dual-beat), so a vector load/store and a following
 * vector data-processing instruction on another unit overlap. */
static inline uint64_t tm_m55_step(tm_state *s, const tm_insn *d) {
  const tm_params *p = &s->p;
  if (tm_prev_taken(s, d->pc)) {
    bool free_loop = s->prev.cls == TC_LOB_END && s->loop_primed && s->loop_start == d->pc;
    if (s->prev.cls == TC_LOB_END && !free_loop) {
      s->loop_primed = true;
      s->loop_start = d->pc;
    }
    if (!free_loop) {
      /* a 32-bit target in the last halfword of a 64-bit fetch granule needs a second fetch */
      s->next_issue += p->branch_refill + ((p->fetch_split && d->size == 4 && (d->pc & 6) == 6) ? 1u : 0u);
      s->branches_taken++;
    }
  }
  if (d->cls == TC_LOB_START) s->loop_primed = false;
  if (d->cls == TC_LOB_END && s->loop_primed) { /* executed from the loop cache: no slot */
    s->prev = *d;
    s->have_prev = true;
    return s->next_issue;
  }
  unsigned unit = tm_m55_unit(d, p->pred_beats ? TU_VINT : TU_ALU);
  uint64_t t = s->next_issue;
  bool early = d->cls != TC_ALU && d->cls != TC_IT && d->cls != TC_NOP && d->cls != TC_BRANCH;
  for (unsigned r = 0, m = d->src; m; r++, m >>= 1)
    if (m & 1) t = tm_max(t, early ? s->reg_ready[r] : s->alu_ready[r]);
  for (unsigned r = 0, m = d->qsrc; m; r++, m >>= 1)
    if (m & 1) t = tm_max(t, s->q_ready[r]);
  bool vec = (d->cls >= TC_MVE_LOAD && d->cls <= TC_MVE_RED) || (d->cls == TC_MVE_PRED && p->pred_beats);
  if (unit != TU_ALU) t = tm_max(t, s->unit_free[unit]);
  bool paired = false;
  if (s->have_prev && !s->prev_paired && tm_m55_pairs(p, &s->prev, d) && t == s->next_issue && s->cycle + 1 == t) {
    t = s->cycle; /* issues beside the previous one */
    paired = true;
  }
  unsigned occupy = 1, latency = 1;
  switch (d->cls) {
  case TC_LOAD: latency = p->load_latency; break;
  case TC_LOADD: latency = p->load_latency; break; /* 64-bit TCM path: one access */
  case TC_LDM: case TC_STM: occupy = (d->nregs + 1u) / 2u; latency = occupy + p->load_latency - 1u; break;
  case TC_VFP_LDM: case TC_VFP_STM: occupy = (d->nregs + 1u) / 2u; break;
  case TC_MUL: latency = p->mul_latency; break;
  case TC_DIV: occupy = latency = p->div_cycles; break;
  case TC_VFP_MAC: latency = 2; break;
  case TC_VFP_DIV: occupy = latency = 14; break;
  default: break;
  }
  if (vec) occupy = (d->flags & TF_GATHER) ? (d->nregs + p->gather_rate - 1u) / p->gather_rate : 2u;
  uint64_t issue_next = t + 1;
  if (d->cls == TC_LDM || d->cls == TC_STM || d->cls == TC_VFP_LDM || d->cls == TC_VFP_STM || d->cls == TC_DIV ||
      d->cls == TC_VFP_DIV)
    issue_next = t + occupy; /* multi-cycle scalar instructions block issue */
  if (d->flags & TF_LOADS_PC) issue_next = t + p->load_latency; /* the branch waits for its load */
  if (paired) issue_next = s->next_issue;
  if (unit != TU_ALU) s->unit_free[unit] = t + occupy;
  for (unsigned r = 0, m = d->dst; m; r++, m >>= 1)
    if (m & 1) {
      s->reg_ready[r] = t + latency;
      s->alu_ready[r] = t + (d->cls == TC_LOAD || d->cls == TC_LOADD ? p->load_alu_latency : latency);
    }
  if (d->cls == TC_MVE_RED) {
    for (unsigned r = 0, m = d->dst; m; r++, m >>= 1)
      if (m & 1) s->reg_ready[r] = s->alu_ready[r] = t + p->red_latency;
  }
  if (d->cls == TC_MVE_MUL)
    for (unsigned r = 0, m = d->qdst; m; r++, m >>= 1)
      if (m & 1) s->q_ready[r] = t + p->vmul_latency;
  if (d->cls == TC_MVE_LOAD || d->cls == TC_MVE_INT)
    for (unsigned r = 0, m = d->qdst; m; r++, m >>= 1)
      if (m & 1) s->q_ready[r] = t + 1;
  s->next_issue = issue_next;
  s->cycle = t;
  s->prev = *d;
  s->prev_paired = paired;
  s->have_prev = true;
  return t;
}

/* A data access of the instruction just stepped took `waits` extra cycles: the in-order
 * pipeline stalls for them (both cores). */
static inline void tm_mem_stall(tm_state *s, bool m55, unsigned waits) {
  s->stall_cycles += waits;
  if (!m55) {
    s->cycle += waits;
    return;
  }
  s->next_issue += waits;
  s->unit_free[TU_LSU] += waits;
  for (unsigned r = 0, m = s->prev.dst; m; r++, m >>= 1)
    if (m & 1) s->reg_ready[r] += waits, s->alu_ready[r] += waits;
}

/* ---- a simple set-associative data cache (LRU) for wait-state regions behind a cache -- */
enum { TM_CACHE_MAX_SETS = 1024, TM_CACHE_MAX_WAYS = 8 };
typedef struct tm_cache {
  unsigned sets, ways, line_shift;
  uint32_t tag[TM_CACHE_MAX_SETS][TM_CACHE_MAX_WAYS]; /* line address + 1; 0: invalid */
  uint32_t age[TM_CACHE_MAX_SETS][TM_CACHE_MAX_WAYS];
  uint32_t clock;
  uint64_t hits, misses;
} tm_cache;

static inline bool tm_cache_init(tm_cache *c, unsigned bytes, unsigned ways, unsigned line) {
  memset(c, 0, sizeof *c);
  unsigned shift = 0;
  while ((1u << shift) < line) shift++;
  if (ways == 0 || ways > TM_CACHE_MAX_WAYS || (1u << shift) != line || bytes % (ways * line)) return false;
  c->sets = bytes / (ways * line);
  if (c->sets == 0 || c->sets > TM_CACHE_MAX_SETS || (c->sets & (c->sets - 1))) return false;
  c->ways = ways;
  c->line_shift = shift;
  return true;
}

/* True on a hit; on a miss the least recently used way is refilled. */
static inline bool tm_cache_access(tm_cache *c, uint32_t addr) {
  uint32_t line = addr >> c->line_shift, set = line & (c->sets - 1);
  unsigned victim = 0;
  c->clock++;
  for (unsigned w = 0; w < c->ways; w++) {
    if (c->tag[set][w] == line + 1) {
      c->age[set][w] = c->clock;
      c->hits++;
      return true;
    }
    if (c->age[set][w] < c->age[set][victim]) victim = w;
  }
  c->tag[set][victim] = line + 1;
  c->age[set][victim] = c->clock;
  c->misses++;
  return false;
}

#endif
