/* harness: the judge's Python harness (the modules in app/judge/py/), built into the
 * binary by app/judge/embed.sh, and the few lines that load it in the child:
 * `python3 -c HARNESS_BOOT` says "boot" (a Python 3 runs it), and "nonumpy"
 * (after reading all its input) when numpy is missing; else it reads the
 * modules from its standard input (a count line, then "name length" and the
 * source for each) and runs them in order, the last one (jd_main) being the
 * harness's main program. */
#ifndef APP_JUDGE_HARNESS_H
#define APP_JUDGE_HARNESS_H

#include <stddef.h>

struct harness_module {
	const char *name;
	const char *src;
	size_t len;
};

extern const struct harness_module harness_modules[];
extern const size_t harness_module_count;

#define HARNESS_BOOT                                                                   \
	"import sys,types\n"                                                             \
	"sys.stdout.write('boot\\n');sys.stdout.flush()\n"                               \
	"try:\n"                                                                         \
	" import numpy\n"                                                                \
	"except ImportError as e:\n"                                                     \
	" sys.stdin.buffer.read();print('nonumpy\\t%s'%e);sys.exit(0)\n"                \
	"r=sys.stdin.buffer\n"                                                           \
	"for _ in range(int(r.readline())):\n"                                           \
	" n,k=r.readline().split();n=n.decode();m=types.ModuleType(n)\n"                 \
	" m.__file__='<distmm-judge>/'+n+'.py';sys.modules[n]=m\n"                       \
	" exec(compile(r.read(int(k)),m.__file__,'exec'),m.__dict__)\n"

#endif
