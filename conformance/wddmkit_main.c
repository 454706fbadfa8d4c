/*
 * wddmkit_main.c - the `wddmkit` executable; the command line itself is
 * cli_main.c and the cli_*.c files (the wk_cli library).
 */
#include "cli.h"

int main(int argc, char **argv)
{
    return wk_cli_main(argc, argv);
}
