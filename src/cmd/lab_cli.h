/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lab_cli.h - between src/cmd/cmd_lab.c (`lab` and its dispatch, `lab run`)
 * and src/cmd/cmd_lab_setup.c (`lab setup`, `lab teardown`). CLI only.
 */
#ifndef XDPLAB_CMD_LAB_CLI_H
#define XDPLAB_CMD_LAB_CLI_H

/**
 * xl_cmd_lab_setup() - `xdplab lab setup [options]`; @argv[0] is "setup".
 * Return: an exit status (XL_EXIT_OK, XL_EXIT_USAGE, XL_EXIT_RUNTIME).
 */
int xl_cmd_lab_setup(int argc, char **argv);

/** xl_cmd_lab_teardown() - `xdplab lab teardown TAG|--all`; as xl_cmd_lab_setup(). */
int xl_cmd_lab_teardown(int argc, char **argv);

#endif /* XDPLAB_CMD_LAB_CLI_H */
