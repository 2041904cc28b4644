/* The platform side of the heliaAOT-style test applications (tests/helia_apps): where
 * the stimulus comes from and where the outputs go. host_main.c implements it with files,
 * qemu_main.c with the corpus case linked into the image and semihosting. The
 * applications themselves only use the generated module's API. */
#ifndef APP_IO_H
#define APP_IO_H
#include <stddef.h>
#include <stdint.h>

/* Bytes of input i of the test case (NULL when there is no such input). */
const void *app_input(int i, size_t *size);
/* Hands output i to the platform; 0 on success. */
int app_output(int i, const void *data, size_t size);
/* The application: 0 when everything it checked held. */
int app_main(void);

#endif
