/* SPDX-License-Identifier: MIT */
/*
 * cli_manual.c - `wddmkit help --man` and `wddmkit help --completion bash`:
 * the manual page wddmkit(1) and a bash completion script, written from the
 * help text of every command. The build runs both and installs what they
 * print (cli/CMakeLists.txt), so neither can drift from the command.
 *
 * How the help text is read: every command is asked for its help, with
 * wk_cli_help_sink pointed here, so its option table (or a group's table of
 * subcommands) arrives instead of being printed. A command that answers
 * --help without its table is an error: the manual would lack it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "fuzz.h"

#define MAX_PAGES 64 /* commands and subcommands with a table */

/* One command's table as its --help handed it, and the top-level command
 * it belongs to. */
struct page {
    const struct wk_cli_command *cmd;
    const struct wk_cli_top_command *top;
};

struct collection {
    struct page pages[MAX_PAGES];
    size_t count;
    const struct wk_cli_top_command *top; /* being asked */
    const struct wk_cli_subcommand *subs; /* the group's, when it answered as one */
    size_t nsubs;
    int answered, overflow;
};

static void on_command(void *ctx, const struct wk_cli_command *cmd)
{
    struct collection *c = ctx;
    c->answered = 1;
    if (c->count == MAX_PAGES) {
        c->overflow = 1;
        return;
    }
    c->pages[c->count++] = (struct page){ cmd, c->top };
}

static void on_group(void *ctx, const char *group, const char *about, const struct wk_cli_subcommand *subs,
                     size_t count)
{
    (void)group, (void)about;
    struct collection *c = ctx;
    c->answered = 1;
    c->subs = subs;
    c->nsubs = count;
}

/* run(["--help"]) with the sink set: 0 when it answered through it. */
static int ask(struct collection *c, int (*run)(int, char **), const char *what)
{
    char help[] = "--help";
    char *argv[] = { help, NULL };
    c->answered = 0;
    c->subs = NULL;
    int rc = run(1, argv);
    if (rc != 0 || !c->answered) {
        fprintf(stderr, "wddmkit help: '%s --help' did not answer with its option table (exit %d)\n", what, rc);
        return 1;
    }
    return 0;
}

/* Every command's table, `wddmkit help`'s order, each group's subcommands
 * after it; 0, or 1 after saying why. */
static int collect(struct collection *c)
{
    size_t n;
    const struct wk_cli_top_command *tops = wk_cli_commands(&n);
    struct wk_cli_help_sink sink = { on_command, on_group, c };
    const struct wk_cli_help_sink *saved = wk_cli_help_sink;
    wk_cli_help_sink = &sink;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        c->top = &tops[i];
        rc = ask(c, tops[i].run, tops[i].name);
        const struct wk_cli_subcommand *subs = c->subs;
        size_t nsubs = c->nsubs;
        for (size_t k = 0; subs && k < nsubs && !rc; k++)
            rc = ask(c, subs[k].run, subs[k].cmd->name);
    }
    wk_cli_help_sink = saved;
    if (!rc && c->overflow) {
        fprintf(stderr, "wddmkit help: more than %d commands with options (cli_manual.c MAX_PAGES)\n", MAX_PAGES);
        rc = 1;
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* The manual page (man(7))                                             */
/* ------------------------------------------------------------------ */

/* text[0, len) for roff: a backslash as \e, a hyphen as \- (options stay
 * what a reader types, in copy and search), and a line that would start
 * with a control character ('.' or '\'') guarded by \&. */
static void roff_text(FILE *out, const char *text, size_t len, int line_start)
{
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (line_start && (ch == '.' || ch == '\''))
            fputs("\\&", out);
        line_start = 0;
        if (ch == '\\')
            fputs("\\e", out);
        else if (ch == '-')
            fputs("\\-", out);
        else
            fputc(ch, out);
    }
}

static void roff_line(FILE *out, const char *text)
{
    roff_text(out, text, strlen(text), 1);
    fputc('\n', out);
}

/* Help text as roff prose: its lines are wrapped for a terminal, so roff
 * fills them again; a blank line starts a paragraph, and a line the text
 * indents or starts as a list item ("- ") starts a line of its own. */
static void roff_prose(FILE *out, const char *text)
{
    for (const char *p = text + strspn(text, "\n"); *p;) {
        size_t len = strcspn(p, "\n");
        if (len == 0)
            fputs(".PP\n", out);
        else {
            if (p[0] == ' ' || (p[0] == '-' && p[1] == ' '))
                fputs(".br\n", out);
            size_t lead = strspn(p, " ");
            roff_text(out, p + lead, len - lead, 1);
            fputc('\n', out);
        }
        p += len;
        if (*p)
            p++;
    }
}

static void roff_option(FILE *out, const struct wk_cli_option *o)
{
    const char *meta = o->value == WK_CLI_VALUE ? (o->meta ? o->meta : "VALUE") : NULL;
    fputs(".TP\n", out);
    if (o->name && o->key > 0 && o->key < 128)
        fprintf(out, "\\fB\\-%c\\fR, \\fB\\-\\-", o->key);
    else if (o->name)
        fputs("\\fB\\-\\-", out);
    else
        fprintf(out, "\\fB\\-%c", o->key);
    if (o->name)
        roff_text(out, o->name, strlen(o->name), 0);
    fputs("\\fR", out);
    if (meta) {
        fputs(" \\fI", out);
        roff_text(out, meta, strlen(meta), 0);
        fputs("\\fR", out);
    }
    fputc('\n', out);
    roff_prose(out, o->help ? o->help : "");
}

static void roff_page(FILE *out, const struct wk_cli_command *cmd)
{
    fputs(".SS \"", out);
    roff_text(out, cmd->name, strlen(cmd->name), 0);
    fputs("\"\n.B wddmkit ", out);
    roff_text(out, cmd->name, strlen(cmd->name), 0);
    if (cmd->usage && *cmd->usage) {
        fputc(' ', out);
        roff_text(out, cmd->usage, strlen(cmd->usage), 0);
    }
    fputs("\n.PP\n", out);
    if (cmd->about) {
        roff_prose(out, cmd->about);
        fputs(".PP\n", out);
    }
    for (const struct wk_cli_option *o = cmd->options; o && (o->name || o->key); o++)
        roff_option(out, o);
    static const struct wk_cli_option help = { "help", 'h', WK_CLI_FLAG, NULL, "print this help and exit" };
    roff_option(out, &help);
    if (cmd->epilog) {
        fputs(".PP\n", out);
        roff_prose(out, cmd->epilog);
    }
}

static void roff_overview(FILE *out)
{
    size_t n;
    const struct wk_cli_top_command *tops = wk_cli_commands(&n);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof(tops[i].help) / sizeof(tops[i].help[0]) && tops[i].help[k].summary; k++) {
            fputs(".TP\n\\fB", out);
            roff_text(out, tops[i].name, strlen(tops[i].name), 0);
            fputs("\\fR", out);
            if (*tops[i].help[k].usage) {
                fputc(' ', out);
                roff_text(out, tops[i].help[k].usage, strlen(tops[i].help[k].usage), 0);
            }
            fputc('\n', out);
            roff_prose(out, tops[i].help[k].summary);
        }
}

int wk_cli_write_manual(FILE *out)
{
    struct collection c = { 0 };
    if (collect(&c))
        return 1;
    fprintf(out, ".\\\" SPDX-License-Identifier: MIT\n"
                 ".\\\" Written by 'wddmkit help --man' from the help text of every command.\n"
                 ".TH WDDMKIT 1 \"\" \"wddmkit %s\" \"User Commands\"\n"
                 ".nh\n.ad l\n.SH NAME\nwddmkit \\- ",
            WK_VERSION);
    roff_line(out, wk_cli_tagline);
    fputs(".SH SYNOPSIS\n.B wddmkit\n.I command\n.RI [ options ]\n.PP\n.B wddmkit help\n.RI [ command ]\n"
          ".SH DESCRIPTION\n",
          out);
    roff_overview(out);
    fputs(".PP\n", out);
    roff_prose(out, wk_cli_closing);
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < c.count; i++)
        roff_page(out, c.pages[i].cmd);
    fputs(".SH ENVIRONMENT\n.TP\n.B WDDMKIT_DATA_DIR\n", out);
    roff_line(out, "The kit's data (specs/, corpus/, the dictionaries), in place of the folder the command "
                   "finds beside itself ('wddmkit version' says which it uses).");
    fputs(".SH \"SEE ALSO\"\n", out);
    roff_line(out, "The documentation in <prefix>/share/doc/wddmkit and in the kit's docs/ folder: "
                   "getting-started.md, command-line.md, verdicts.md, fuzzing.md.");
    return ferror(out) ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* The bash completion                                                  */
/* ------------------------------------------------------------------ */

/* What an option's value completes to, from its name in the help: a
 * choice ("libfuzzer|afl") its words, a path a file, DIR a folder, a
 * harness the kit's harnesses; anything else (a number, a glob) nothing. */
static void bash_value(FILE *out, const struct wk_cli_option *o)
{
    const char *meta = o->meta ? o->meta : "";
    if (o->name && strcmp(o->name, "harness") == 0) {
        size_t n;
        const struct wk_fuzz_harness *h = wk_fuzz_harness_table(&n);
        fputs("words '", out);
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%s%s", i ? " " : "", h[i].name);
        fputc('\'', out);
    } else if (strchr(meta, '|') || (*meta && strspn(meta, "abcdefghijklmnopqrstuvwxyz") == strlen(meta))) {
        /* choices ("libfuzzer|afl"), or the one word a value can be ("bash"):
         * a placeholder is in capitals */
        fputs("words '", out);
        for (const char *p = meta; *p; p++)
            fputc(*p == '|' ? ' ' : *p, out);
        fputc('\'', out);
    } else if (strcmp(meta, "DIR") == 0)
        fputs("dirs", out);
    else if (strcmp(meta, "PATH") == 0 || strcmp(meta, "FILE") == 0 || strcmp(meta, "OUT") == 0 ||
             strcmp(meta, "JOURNAL") == 0)
        fputs("files", out);
    else
        fputs("none", out);
}

/* The case arm of one command: its options, and how each value completes;
 * `help`'s operand is a command's name. */
static void bash_command(FILE *out, const struct wk_cli_command *cmd)
{
    fprintf(out, "    '%s')\n", cmd->name);
    if (strcmp(cmd->name, "help") == 0) {
        size_t n;
        const struct wk_cli_top_command *tops = wk_cli_commands(&n);
        fputs("        operands='", out);
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%s%s", i ? " " : "", tops[i].name);
        fputs("'\n", out);
    }
    fputs("        opts='", out);
    for (const struct wk_cli_option *o = cmd->options; o && (o->name || o->key); o++) {
        if (o->name)
            fprintf(out, "--%s ", o->name);
        if (o->key > 0 && o->key < 128)
            fprintf(out, "-%c ", o->key);
    }
    fputs("-h --help'\n        case $opt in\n", out);
    for (const struct wk_cli_option *o = cmd->options; o && (o->name || o->key); o++) {
        if (o->value != WK_CLI_VALUE)
            continue;
        fputs("        ", out);
        if (o->name)
            fprintf(out, "--%s", o->name);
        if (o->key > 0 && o->key < 128)
            fprintf(out, "%s-%c", o->name ? "|" : "", o->key);
        fputs(") _wddmkit_value ", out);
        bash_value(out, o);
        fputs("; return ;;\n", out);
    }
    fputs("        esac ;;\n", out);
}

int wk_cli_write_bash_completion(FILE *out)
{
    struct collection c = { 0 };
    if (collect(&c))
        return 1;
    size_t n;
    const struct wk_cli_top_command *tops = wk_cli_commands(&n);
    fputs("# SPDX-License-Identifier: MIT\n"
          "# bash completion for wddmkit, written by 'wddmkit help --completion bash'\n"
          "# from the help text of every command.\n"
          "\n"
          "# _wddmkit_value KIND [WORDS]: complete an option's value.\n"
          "_wddmkit_value() {\n"
          "    case $1 in\n"
          "    words) mapfile -t COMPREPLY < <(compgen -W \"$2\" -- \"$cur\") ;;\n"
          "    files) mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); compopt -o filenames 2>/dev/null ;;\n"
          "    dirs) mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); compopt -o filenames 2>/dev/null ;;\n"
          "    *) COMPREPLY=() ;;\n"
          "    esac\n"
          "}\n"
          "\n"
          "_wddmkit() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} opt='' cmd='' i w\n"
          "    # the option whose value this is: '--opt VALUE', or '--opt=VALUE' (which\n"
          "    # bash splits at '=' into '--opt' '=' 'VALUE')\n"
          "    if [ \"$cur\" = = ]; then\n"
          "        opt=${COMP_WORDS[COMP_CWORD - 1]} cur=\n"
          "    elif [ \"$COMP_CWORD\" -ge 2 ] && [ \"${COMP_WORDS[COMP_CWORD - 1]}\" = = ]; then\n"
          "        opt=${COMP_WORDS[COMP_CWORD - 2]}\n"
          "    elif [ \"$COMP_CWORD\" -ge 1 ]; then\n"
          "        opt=${COMP_WORDS[COMP_CWORD - 1]}\n"
          "    fi\n"
          "    # the command: its first word, and a group's subcommand word\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        w=${COMP_WORDS[i]}\n"
          "        case $w in -*|=) continue ;; esac\n"
          "        if [ -z \"$cmd\" ]; then\n"
          "            cmd=$w\n"
          "            case $cmd in\n",
          out);
    /* the groups: their subcommand words */
    for (size_t i = 0; i < n; i++) {
        int group = 0;
        for (size_t k = 0; k < c.count; k++)
            group |= c.pages[k].top == &tops[i] && strcmp(c.pages[k].cmd->name, tops[i].name) != 0;
        if (group)
            fprintf(out, "            %s) ;;\n", tops[i].name);
    }
    fputs("            *) break ;;\n"
          "            esac\n"
          "        else\n"
          "            cmd=\"$cmd $w\"\n"
          "            break\n"
          "        fi\n"
          "    done\n"
          "    local opts='' operands=''\n"
          "    case $cmd in\n"
          "    '')\n"
          "        mapfile -t COMPREPLY < <(compgen -W '",
          out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? " " : "", tops[i].name);
    fputs("' -- \"$cur\")\n        return ;;\n", out);
    for (size_t i = 0; i < n; i++) { /* a group's word alone: its subcommands */
        int first = 1;
        for (size_t k = 0; k < c.count; k++) {
            const char *name = c.pages[k].cmd->name;
            size_t len = strlen(tops[i].name);
            if (c.pages[k].top != &tops[i] || strncmp(name, tops[i].name, len) != 0 || name[len] != ' ')
                continue;
            if (first)
                fprintf(out, "    '%s')\n        mapfile -t COMPREPLY < <(compgen -W '", tops[i].name);
            fprintf(out, "%s%s", first ? "" : " ", name + len + 1);
            first = 0;
        }
        if (!first)
            fputs("' -- \"$cur\")\n        return ;;\n", out);
    }
    for (size_t k = 0; k < c.count; k++)
        bash_command(out, c.pages[k].cmd);
    fputs("    esac\n"
          "    case $cur in\n"
          "    -*) mapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\") ;;\n"
          "    *) if [ -n \"$operands\" ]; then _wddmkit_value words \"$operands\"; else _wddmkit_value files; fi ;;\n"
          "    esac\n"
          "}\n"
          "complete -F _wddmkit wddmkit\n",
          out);
    return ferror(out) ? 1 : 0;
}
