/* SPDX-License-Identifier: MIT-0 */
/* tinyaot runtime: kernel variant masks. A converted module ships its own ta_config.h
 * in place of this one, naming the variants its layers call (TA_<FAMILY>_VARIANTS masks),
 * so a kernel file with several specialised loops compiles only those. Without a mask, as
 * here, every variant is compiled. */
#ifndef TA_CONFIG_H
#define TA_CONFIG_H
#endif
