/* Checks mve_classify.h against encodings produced by arm-none-eabi-gcc for cortex-m55. */
#include <stdio.h>

#include "mve_classify.h"

typedef struct {
  uint16_t hw1, hw2;
  bool mve, loop_end;
  const char *text;
} Case;

static const Case cases[] = {
    {0xf00f, 0xc003, false, true, "le lr, label"},
    {0xf01f, 0xc005, false, true, "letp lr, label"},
    {0xf02f, 0xc007, false, true, "le label"},
    {0xf043, 0xe001, false, false, "dls lr, r3"},
    {0xf043, 0xc05f, false, false, "wls lr, r3, label"},
    {0xf003, 0xe001, false, false, "dlstp.8 lr, r3"},
    {0xf013, 0xc059, false, false, "wlstp.16 lr, r3, label"},
    {0xf00f, 0xe001, false, false, "lctp"},
    {0xf000, 0xe801, true, false, "vctp.8 r0"},
    {0xf025, 0xe801, true, false, "vctp.32 r5"},
    {0xfe71, 0x0f4d, true, false, "vpst"},
    {0xfe41, 0x1f03, true, false, "vpt.s8 gt, q0, q1"},
    {0xef00, 0x0842, true, false, "vadd.i8 q0, q0, q1"},
    {0xed90, 0x0e80, true, false, "vldrb.s16 q0, [r0]"},
    {0xecb1, 0x3f04, true, false, "vldrw.u32 q1, [r1], #16"},
    {0xed82, 0x5e00, true, false, "vstrb.8 q2, [r2]"},
    {0xeef0, 0x0f22, true, false, "vmladava.s8 r0, q0, q1"},
    {0xee20, 0x3b10, true, false, "vmov.32 q0[1], r3"},
    {0xee52, 0x3b50, true, false, "vmov.s8 r3, q1[2]"},
    {0xec01, 0x0f00, true, false, "vmov r0, r1, q0[2], q0[0]"},
    {0xeea0, 0x1b10, true, false, "vdup.32 q0, r1"},
    {0xef22, 0x0844, true, false, "vadd.i32 q0, q1, q2"},
    {0xef02, 0x0d44, true, false, "vadd.f32 q0, q1, q2"},
    {0xeeed, 0x1a10, true, false, "vmsr p0, r1"},
    {0xeefd, 0x1a10, true, false, "vmrs r1, p0"},
    {0xeea4, 0x0fc0, true, false, "vshlc q0, r0, #4"},
    {0xee9d, 0x0f43, true, false, "vqrshrnb.s32 q0, q1, #3"},
    {0xffbb, 0x0642, true, false, "vcvt.f32.s32 q0, q1"},
    {0xee33, 0x0e83, true, false, "vmaxa.s8 q0, q1"},
    {0xef22, 0x0152, true, false, "vmov q0, q1"},
    {0xee80, 0x0f02, true, false, "vrmlalvh.s32 r0, r1, q0, q1"},
    {0xeea8, 0x0f42, true, false, "vmovlb.s8 q0, q1"},
    {0xee13, 0x0e04, true, false, "vmullb.s16 q0, q1, q2"},
    {0xee23, 0x0e62, true, false, "vqdmulh.s32 q0, q1, r2"},
    {0xee23, 0x0e42, true, false, "vmla.s32 q0, q1, r2"},
    {0xeef1, 0x0f00, true, false, "vaddv.s8 r0, q0"},
    {0xfd92, 0x1e02, true, false, "vldrw.u32 q0, [q1, #8]"},
    {0xfc90, 0x0e02, true, false, "vldrb.u8 q0, [r0, q1]"},
    {0xedb9, 0x0f01, true, false, "vldrh.s32 q0, [r1, #2]!"},
    {0xea50, 0x1f2d, false, false, "sqrshr r0, r1"},
    {0xea50, 0x01ef, false, false, "asrl r0, r1, #3"},
    {0xeeb0, 0x0a60, false, false, "vmov.f32 s0, s1"},
    {0xee30, 0x0a81, false, false, "vadd.f32 s0, s1, s2"},
    {0xee00, 0x1a10, false, false, "vmov s0, r1"},
    {0xee11, 0x1a90, false, false, "vmov r1, s3"},
    {0xed90, 0x0a00, false, false, "vldr s0, [r0]"},
    {0xed90, 0x0b00, false, false, "vldr d0, [r0]"},
    {0xed2d, 0x8a02, false, false, "vpush {s16-s17}"},
    {0xeef1, 0x0a10, false, false, "vmrs r0, fpscr"},
    {0xec41, 0x0b10, false, false, "vmov d0, r0, r1"},
    {0xfb21, 0x3002, false, false, "smlad r0, r1, r2, r3"},
    {0xe9d2, 0x0100, false, false, "ldrd r0, r1, [r2]"},
};

int main(void) {
  int bad = 0, n = (int)(sizeof cases / sizeof cases[0]);
  for (int i = 0; i < n; i++) {
    const Case *c = &cases[i];
    if (!thumb_is_32bit(c->hw1) || thumb_is_mve(c->hw1, c->hw2) != c->mve ||
        thumb_is_loop_end(c->hw1, c->hw2) != c->loop_end) {
      printf("misclassified: %04x %04x %s\n", c->hw1, c->hw2, c->text);
      bad++;
    }
  }
  if (thumb_is_32bit(0x4770) || thumb_is_32bit(0xbf00)) {
    printf("16-bit bx lr / nop taken as 32-bit\n");
    bad++;
  }
  printf("%d passed, %d failed\n", n + 1 - bad, bad);
  return bad != 0;
}
