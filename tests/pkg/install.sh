#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make install DESTDIR=... installs exactly what the Debian package ships
# (histtop, its man page, its bash completion, README.md, the exporter's
# unit and config), with the right
# modes; the installed histtop runs; make uninstall takes it all away; the
# package's version is configure.ac's.
. "${top_srcdir:-.}/tests/ui/lib.sh"
src=${top_srcdir:-.}
build=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# MAKEFLAGS stays: it carries make check's command-line variables (tests/all
# runs the ASan check with noinst_PROGRAMS= so the static helpers are not built)
mk() { "${MAKE:-make}" -C "$build" "$@" >>"$tmp/make.log" 2>&1; }
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$build/config.h")

mk install DESTDIR="$tmp/root" prefix=/usr
ok $? "make install DESTDIR=... prefix=/usr exits 0"
# the configuration and the unit go where configure was told (Debian's
# rules: /etc, /lib/systemd/system), else under the prefix
confdir() { sed -n "s/^$1 = //p" "$build/Makefile" | sed 's|^\${prefix}|/usr|'; }
conf=$(confdir sysconfdir)/histtop/exporter.conf
unit=$(confdir systemdsystemunitdir)/histtop-exporter.service
got=$(cd "$tmp/root" && find . ! -type d | LC_ALL=C sort | tr '\n' ' ')
want=$(printf '.%s\n' /usr/bin/histtop "$conf" "$unit" /usr/share/bash-completion/completions/histtop \
	/usr/share/doc/histtop/README.md /usr/share/man/man1/histtop.1 | LC_ALL=C sort | tr '\n' ' ')
is "$got" "$want" \
	"it installs histtop, the exporter's config and unit, the completion under the command's name, README.md and the man page"
got=$(cd "$tmp/root" && find . ! -type d -exec stat -c '%a %n' {} + | grep -v '/bin/histtop$' |
	cut -d' ' -f1 | sort -u | tr '\n' ' ')
is "$(stat -c %a "$tmp/root/usr/bin/histtop") $got" "755 644 " "the program is executable, the rest 0644"
unit=$(cat "$tmp/root$unit")
like "$unit" '^ExecStart=/.*/bin/histtop --listen 127\.0\.0\.1:19100 --config /.*/histtop/exporter\.conf$' \
	"the unit runs histtop on loopback port 19100 with the config, by full paths"
case $unit in *@*) ok 1 "the unit has no @variable@ left" ;; *) ok 0 "the unit has no @variable@ left" ;; esac
grep -qE '^-e [a-z_]+:[a-z_]+ ' "$tmp/root$conf"
ok $? "the config holds at least one trigger"
cmp -s "$src/histtop/histtop.bash" "$tmp/root/usr/share/bash-completion/completions/histtop"
ok $? "the installed completion is histtop/histtop.bash"
cmp -s "$src/histtop/histtop.1" "$tmp/root/usr/share/man/man1/histtop.1"
ok $? "the installed man page is histtop/histtop.1"

out=$("$tmp/root/usr/bin/histtop" --version); rc=$?
is "$rc" 0 "the installed histtop --version exits 0"
is "$out" "histtop $version" "and prints 'histtop VERSION' with configure.ac's version"
out=$("$tmp/root/usr/bin/histtop" -V)
is "$out" "histtop $version" "-V is --version"
like "$("$tmp/root/usr/bin/histtop" --help)" '^  -V, --version ' "--help lists --version"
like "$(cat "$src/histtop/histtop.1")" '^\.BR \\-V ", " \\-\\-version' "the man page lists --version"

mk uninstall DESTDIR="$tmp/root" prefix=/usr
ok $? "make uninstall exits 0"
is "$(cd "$tmp/root" && find . ! -type d)" "" "make uninstall leaves no file behind"

# debian/changelog carries the same version as configure.ac (debian/rules
# checks it again at build time)
if [ -f "$src/debian/changelog" ]; then
	deb=$(sed -n '1s/^histtop (\([^)]*\)).*/\1/p' "$src/debian/changelog")
	is "$deb" "$version" "debian/changelog's version is configure.ac's"
fi
# shellcheck disable=SC2154
[ "$_tap_failed" -eq 0 ] || sed 's/^/#   make: /' "$tmp/make.log" | tail -n 20
done_testing
