// SPDX-License-Identifier: GPL-2.0
/*
 * sqlhist: a synthetic event (SELECT ... FROM START JOIN END ON ...) or a
 * histogram (SELECT ... FROM EVENT) described in SQL, as libtracefs's
 * tracefs_sql() parses it; prints the tracefs writes that make it, or makes
 * it (-e).  The one command that calls libtracefs's synthetic-event API: the
 * SQL grammar is libtracefs's (tracefs_sql(3)), so the two must not differ.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <event-parse.h>
#include <tracefs.h>

#include "trace-cmd.h"
#include "trace-tracefs.h"

extern const struct command cmd_sqlhist;

static const char sqlhist_usage[] =
	"usage: trace-cmd sqlhist [-n NAME] [-e] [-m VAR | -c VAR [-s] [-S FIELDS] [-T]]\n"
	"                         [-t DIR] (-f FILE | SQL...)\n"
	"  -n NAME     the synthetic event's name (default Anonymous)\n"
	"  -e          make it: write the commands instead of printing them\n"
	"  -m VAR      act when the field VAR reaches a new maximum (onmax)\n"
	"  -c VAR      act when the field VAR changes (onchange)\n"
	"  -s          with -m or -c: take a snapshot of the buffer\n"
	"  -S FIELDS   with -m or -c: save these fields of the end event (comma-separated)\n"
	"  -T          with -m or -c: both trace the event and take a snapshot\n"
	"  -t DIR      the tracing directory to use instead of the system's\n"
	"  -f FILE     read the SQL from FILE ('-': standard input)\n"
	"  -h          show this help\n"
	"SQL: SELECT fields FROM start [JOIN end ON start.f = end.f] [WHERE filter];\n"
	"see tracefs_sql(3).\n";

static const struct option sqlhist_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct sqlhist {
	const char *name;
	const char *dir;
	const char *file;
	const char *max_var;
	const char *change_var;
	char *save_fields;
	bool execute;
	bool snapshot;
	bool trace_and_snapshot;
	char *sql;
};

static int parse_opt(struct sqlhist *sq, int c)
{
	switch (c) {
	case 'n': sq->name = optarg; break;
	case 'e': sq->execute = true; break;
	case 'm': sq->max_var = optarg; break;
	case 'c': sq->change_var = optarg; break;
	case 's': sq->snapshot = true; break;
	case 'S': sq->save_fields = optarg; break;
	case 'T': sq->trace_and_snapshot = true; break;
	case 't': sq->dir = optarg; break;
	case 'f': sq->file = optarg; break;
	default: return -1;
	}
	return 0;
}

/* The SQL given as arguments, one string with spaces between. */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *sql;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	sql = xcalloc(1, len);
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(sql, " ");
		strcat(sql, argv[i]);
	}
	return sql;
}

static int check_opts(struct sqlhist *sq, int nr_args)
{
	bool action = sq->snapshot || sq->save_fields || sq->trace_and_snapshot;

	if (sq->max_var && sq->change_var)
		return usage_error(&cmd_sqlhist, "-m and -c cannot be used together");
	if (action && !sq->max_var && !sq->change_var)
		return usage_error(&cmd_sqlhist, "-s, -S and -T need -m or -c");
	if (sq->file && nr_args)
		return usage_error(&cmd_sqlhist, "SQL given both with -f and as arguments");
	if (!sq->file && !nr_args)
		return usage_error(&cmd_sqlhist, "no SQL given (an argument, or -f FILE)");
	return PARSE_RUN;
}

static int parse(struct sqlhist *sq, int argc, char **argv)
{
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hn:em:c:sS:Tt:f:", sqlhist_longopts, NULL)) != -1) {
		if (c == 'h')
			return show_usage(&cmd_sqlhist);
		if (parse_opt(sq, c) < 0)
			return option_error(&cmd_sqlhist, argv, c);
	}
	ret = check_opts(sq, argc - optind);
	if (ret == PARSE_RUN && !sq->file)
		sq->sql = join_args(argc - optind, argv + optind);
	return ret;
}

static int read_sql_file(struct sqlhist *sq)
{
	size_t len;

	if (!strcmp(sq->file, "-"))
		sq->sql = read_text(STDIN_FILENO, &len);
	else
		sq->sql = read_path_text(sq->file, &len);
	if (!sq->sql)
		return error("cannot read '%s': %s", strcmp(sq->file, "-") ? sq->file :
			     "standard input", strerror(errno));
	return 0;
}

/*
 * libtracefs explains a parse error over several lines (the SQL, a caret,
 * "ERROR: 'token'", the reason): one line of it, the reason and the token.
 */
static int sql_error(const char *why, int err)
{
	const char *tok = why ? strstr(why, "ERROR: ") : NULL;
	const char *reason = why;
	size_t tok_len = 0;

	if (tok) {
		tok += strlen("ERROR: ");
		tok_len = strcspn(tok, "\n");
		reason = tok + tok_len + (tok[tok_len] == '\n');
	}
	/* libtracefs leaves no text for some refusals, only errno. */
	if ((!reason || !*reason) && err)
		return error("invalid SQL: %s (see tracefs_sql(3))", strerror(err));
	if (!reason || !*reason)
		return error("invalid SQL (see tracefs_sql(3))");
	return error("invalid SQL: %.*s%s%.*s", (int)strcspn(reason, "\n"), reason,
		     tok ? " at " : "", (int)tok_len, tok ? tok : "");
}

/*
 * The internal variable the end histogram keeps the synthetic field VAR in
 * ("__VAR_N_M="), as "$__VAR_N_M" in a new allocation; NULL if none.
 */
static char *field_variable(const char *end_hist, const char *var)
{
	size_t len = strlen(var);

	for (const char *p = strstr(end_hist, "__"); p; p = strstr(p + 2, "__")) {
		const char *q = p + 2 + len;
		char *name;

		if (strncmp(p + 2, var, len) || *q != '_' || !strchr("0123456789", q[1]))
			continue;
		len = strcspn(p, "=,:");
		name = xmalloc(len + 2);
		sprintf(name, "$%.*s", (int)len, p);
		return name;
	}
	return NULL;
}

/*
 * -m/-c: the end histogram's onmatch(START).EVENT(ARGS) becomes
 * onmax($VAR) / onchange($VAR) with save(FIELDS) (-S), EVENT(ARGS) (the
 * event traced, unless only -s or -S asked) and snapshot() (-s, -T), in that
 * order, as 3.4 writes them.  Done on the command text, as libtracefs's own handlers differ
 * between its versions.
 */
static char *add_handlers(const struct sqlhist *sq, const char *line)
{
	const char *var = sq->max_var ? sq->max_var : sq->change_var;
	const char *kind = sq->max_var ? "onmax" : "onchange";
	const char *match = strstr(line, ":onmatch(");
	const char *action = match ? strstr(match, ").") : NULL;
	size_t action_len = action ? strcspn(action + 2, "'") : 0;
	char *cvar = field_variable(line, var), *out;
	size_t len;

	if (!action || !cvar) {
		free(cvar);
		error("'%s' is not a field of the synthetic event", var);
		return NULL;
	}
	len = strlen(line) + 3 * (strlen(cvar) + 16) + action_len +
	      (sq->save_fields ? strlen(sq->save_fields) : 0);
	out = xmalloc(len);
	len = sprintf(out, "%.*s", (int)(match - line), line);
	if (sq->save_fields)
		len += sprintf(out + len, ":%s(%s).save(%s)", kind, cvar, sq->save_fields);
	if (sq->trace_and_snapshot || (!sq->snapshot && !sq->save_fields))
		len += sprintf(out + len, ":%s(%s).%.*s", kind, cvar, (int)action_len, action + 2);
	if (sq->snapshot || sq->trace_and_snapshot)
		len += sprintf(out + len, ":%s(%s).snapshot()", kind, cvar);
	strcpy(out + len, action + 2 + action_len);
	free(cvar);
	return out;
}

/*
 * The file a line writes, in our tracing directory: libtracefs 1.6 names
 * dynamic_events under the system's tracefs whatever directory it was given.
 * sqlhist writes only dynamic_events, synthetic_events and events/.../trigger.
 */
static char *in_dir(const char *line, const char *dir)
{
	const char *redir = strrchr(line, '\'');
	const char *path = redir ? strchr(redir, '/') : NULL;
	const char *rel = NULL;
	char *out;

	for (const char *p = path; p && !rel; p = strchr(p + 1, '/'))
		if (!strncmp(p, "/events/", 8) || !strcmp(p, "/dynamic_events") ||
		    !strcmp(p, "/synthetic_events"))
			rel = p;
	if (!rel)
		return xstrdup(line);
	out = xmalloc((path - line) + strlen(dir) + strlen(rel) + 1);
	sprintf(out, "%.*s%s%s", (int)(path - line), line, dir, rel);
	return out;
}

static char *lines_in_dir(char *text, const char *dir)
{
	char *out = xcalloc(1, 1);
	size_t len = 0;

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *fixed = in_dir(line, dir);

		out = xrealloc(out, len + strlen(fixed) + 2);
		len += sprintf(out + len, "%s\n", fixed);
		free(fixed);
	}
	free(text);
	return out;
}

/* -m/-c: the handlers go on the end event's histogram, the last line. */
static char *with_handlers(const struct sqlhist *sq, char *text)
{
	char *last, *with, *all;

	text[strlen(text) - 1] = '\0';
	last = strrchr(text, '\n');
	last = last ? last + 1 : text;
	with = add_handlers(sq, last);
	if (!with) {
		free(text);
		return NULL;
	}
	*last = '\0';
	all = xmalloc(strlen(text) + strlen(with) + 2);
	sprintf(all, "%s%s\n", text, with);
	free(with);
	free(text);
	return all;
}

/* The commands as text: "echo 'VALUE' >> PATH" lines, handlers added. */
static char *commands_text(const struct sqlhist *sq, struct tracefs_synth *synth,
			   struct tracefs_hist *hist, const char *dir)
{
	struct trace_seq seq;
	char *text = NULL;
	int ret;

	trace_seq_init(&seq);
	ret = hist ? tracefs_hist_echo_cmd(&seq, NULL, hist, TRACEFS_HIST_CMD_START) :
		     tracefs_synth_echo_cmd(&seq, synth);
	trace_seq_terminate(&seq);
	if (ret)
		error("cannot make the commands: %s", strerror(errno));
	else
		text = lines_in_dir(xstrdup(seq.buffer), dir);
	trace_seq_destroy(&seq);
	if (!text || hist || (!sq->max_var && !sq->change_var))
		return text;
	return with_handlers(sq, text);
}

/* Why the kernel may have refused: no hist triggers or synthetic events. */
static const char *missing_feature(const char *dir)
{
	char *path = xmalloc(strlen(dir) + 32);
	bool missing;

	sprintf(path, "%s/synthetic_events", dir);
	missing = access(path, F_OK) != 0;
	free(path);
	return missing ? " (this kernel has no synthetic events or hist triggers)" : "";
}

/* Does what one "echo 'VALUE' >[>] PATH" line says. */
static int run_command(const char *line, const char *dir)
{
	const char *val = strchr(line, '\'');
	const char *end = val ? strrchr(line, '\'') : NULL;
	const char *redir = end ? strchr(end, '>') : NULL;
	bool append = redir && redir[1] == '>';
	const char *path = redir ? redir + 1 + append + strspn(redir + 1 + append, " ") : NULL;
	ssize_t n;
	int fd;

	if (!path || end == val)
		return error("cannot run '%s'", line);
	fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return error("cannot open '%s': %s%s", path, strerror(errno), missing_feature(dir));
	/* As echo writes it: with a newline. */
	n = dprintf(fd, "%.*s\n", (int)(end - val - 1), val + 1);
	if (n < 0)
		error("writing '%.*s' to '%s': %s%s", (int)(end - val - 1), val + 1, path,
		      strerror(errno), missing_feature(dir));
	close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * Undoes a command that worked: a trigger is removed with "!TRIGGER", a
 * synthetic event "s:NAME FIELDS" with "-:NAME".
 */
static void undo_command(const char *line)
{
	const char *val = strchr(line, '\'') + 1;
	const char *end = strrchr(line, '\'');
	const char *path = strchr(end, '/');
	char *undo = xmalloc(end - val + 4);
	int fd;

	if (!strncmp(val, "s:", 2))
		sprintf(undo, "-:%.*s\n", (int)strcspn(val + 2, " "), val + 2);
	else
		sprintf(undo, "!%.*s\n", (int)(end - val), val);
	fd = path ? open(path, O_WRONLY | O_APPEND) : -1;
	if (fd < 0 || write(fd, undo, strlen(undo)) < 0)
		warning("could not undo '%.*s' in '%s': %s", (int)(end - val), val,
			path ? path : "?", strerror(errno));
	if (fd >= 0)
		close(fd);
	free(undo);
}

/* Runs the lines in order; on a refusal undoes those that ran, last first. */
static int run_commands(char *text, const char *dir)
{
	size_t count = 0, n = 0;
	char **lines;
	int ret = 0;

	for (const char *c = text; *c; c++)
		count += *c == '\n';
	lines = xcalloc(count + 1, sizeof(*lines));
	for (char *line = strtok(text, "\n"); line && n <= count; line = strtok(NULL, "\n"))
		lines[n++] = line;
	for (size_t i = 0; i < n; i++) {
		if (run_command(lines[i], dir) < 0) {
			while (i--)
				undo_command(lines[i]);
			ret = -1;
			break;
		}
	}
	free(lines);
	return ret;
}

static int print_or_make(struct sqlhist *sq, struct tracefs_synth *synth, const char *dir)
{
	struct tracefs_hist *hist = NULL;
	char *text;
	int ret = 0;

	if (!tracefs_synth_complete(synth))
		hist = tracefs_synth_get_start_hist(synth);
	if (hist && (sq->max_var || sq->change_var)) {
		tracefs_hist_free(hist);
		return error("-m and -c need a synthetic event (SELECT ... JOIN ... ON)");
	}
	text = commands_text(sq, synth, hist, dir);
	tracefs_hist_free(hist);	/* a copy, tracefs_synth_get_start_hist(3) */
	if (!text)
		return -1;
	if (sq->execute)
		ret = run_commands(text, dir);
	else
		fputs(text, stdout);
	free(text);
	return ret;
}

static int make_synth(struct sqlhist *sq, const char *dir)
{
	struct tracefs_synth *synth;
	struct tep_handle *tep;
	char *why = NULL;
	int ret;

	tep = tracefs_local_events(dir);
	if (!tep)
		return error("cannot read the event formats of '%s': %s", dir, strerror(errno));
	errno = 0;
	synth = tracefs_sql(tep, sq->name ? sq->name : "Anonymous", sq->sql, &why);
	if (!synth)
		ret = sql_error(why, errno);
	else
		ret = print_or_make(sq, synth, dir);
	free(why);
	tracefs_synth_free(synth);
	tep_free(tep);
	return ret;
}

static int run_sqlhist(int argc, char **argv)
{
	struct sqlhist sq = { 0 };
	const char *dir;
	int ret = parse(&sq, argc, argv);

	if (ret != PARSE_RUN)
		return ret;
	if (sq.file && read_sql_file(&sq) < 0)
		return EXIT_FAILED;
	ret = 0;
	if (sq.dir && access(sq.dir, R_OK | X_OK))
		ret = error("cannot use '%s' as the tracing directory: %s", sq.dir,
			    strerror(errno));
	dir = ret ? NULL : sq.dir ? sq.dir : tfs_dir();
	/* The paths the commands name: ours, not the one libtracefs would find. */
	if (dir && tracefs_set_tracing_dir((char *)dir))
		error("cannot use '%s' as the tracing directory", dir), dir = NULL;
	if (dir)
		ret = make_synth(&sq, dir);
	free(sq.sql);
	return dir && !ret ? EXIT_OK : EXIT_FAILED;
}

const struct command cmd_sqlhist = {
	.name = "sqlhist",
	.run = run_sqlhist,
	.usage = sqlhist_usage,
	.summary = "make a synthetic event or histogram described in SQL",
};
