#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Each external library has one owning file: tracefs.h only in tfs.c,
# curses.h only in ui.c, microhttpd.h only in http.c, and the pure core includes neither.
src=${top_srcdir:-.}/histtop
n=0 fail=0
check() {	# DESC WANT GOT
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "#   want: $2"
		echo "#   got:  $3"
		fail=1
	fi
}
owners() { grep -l "#include <$1" "$src"/*.c "$src"/*.h 2>/dev/null | sed 's|.*/||' | tr '\n' ' '; }
check "only tfs.c includes tracefs.h" "tfs.c " "$(owners tracefs.h)"
check "only ui.c includes curses.h" "ui.c " "$(owners curses.h)$(owners ncurses)"
check "only http.c includes microhttpd.h" "http.c " "$(owners microhttpd.h)"
check "libtraceevent is used only through libtracefs" "" "$(owners event-parse.h)"
core=$(grep -lE '#include <(unistd|fcntl|dirent|sys/stat)\.h>' \
	"$src"/hp.c "$src"/table.c "$src"/dist.c "$src"/stree.c "$src"/opts.c "$src"/out.c 2>/dev/null |
	sed 's|.*/||' | tr '\n' ' ')
# a file renamed away must not leave the check with nothing to grep
for f in hp.c table.c dist.c stree.c opts.c out.c; do
	[ -f "$src/$f" ] || core="${core}missing:$f "
done
check "the pure core (hp, table, dist, stree, opts, out) does no file-system I/O" "" "$core"
echo "1..$n"
exit $fail
