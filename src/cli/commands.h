#ifndef TINYAOT_COMMANDS_H
#define TINYAOT_COMMANDS_H

int cmd_convert(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_platforms(int argc, char **argv);
int cmd_operators(int argc, char **argv);

#endif
