/* SPDX-License-Identifier: MIT */
/*
 * driver_identity.c - which driver module a report judged: the SHA-256 of
 * its file and its GNU build-id (cli.h, wk_cli_driver_identity).
 *
 * A path says little once a CI job is gone (./mydriver.so was rebuilt ten
 * times since); the digest names the exact bytes, and the build-id is what
 * debuginfod, `file`, gdb and a core dump name the binary by. SHA-256 is
 * Nettle's (Debian nettle-dev, a small, maintained library); the build-id
 * is read by fuzz/gate/elf_build_id.c, which fuzz_elf fuzzes. The file is
 * read once, whole, up to WK_CLI_IDENTITY_LIMIT bytes.
 */
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h" /* wk_elf_build_id (gate/elf_build_id.h) */
#include "util.h"

#define WK_CLI_IDENTITY_LIMIT (1ull << 30)

static void hex(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

void wk_cli_sha256_hex(const void *data, size_t size, char out[65])
{
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, size, data);
    sha256_digest(&ctx, sizeof(digest), digest);
    hex(digest, sizeof(digest), out);
}

int wk_cli_driver_identity(const char *path, struct wk_cli_driver_identity *out, char *why, size_t cap)
{
    uint8_t *data = NULL;
    size_t size = 0;
    memset(out, 0, sizeof(*out));
    if (wk_file_read(path, WK_CLI_IDENTITY_LIMIT, &data, &size, why, cap) != WK_OK)
        return -1;
    wk_cli_sha256_hex(data, size, out->sha256);
    uint8_t id[WK_ELF_BUILD_ID_MAX];
    size_t len = 0;
    char elf_why[256];
    if (wk_elf_build_id(data, size, id, &len, elf_why, sizeof(elf_why)) == 1)
        hex(id, len, out->build_id);
    free(data);
    return 0;
}
