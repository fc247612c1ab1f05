# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tmux helpers for the guest's screen suites (source after tap.sh):
# histtop runs in pane "t" of a private tmux server named $TMUX_NAME.
#
#   screen             the pane's text
#   wait_for PATTERN   until the pane matches PATTERN (grep -E), up to 20 s;
#                      on a timeout the pane is shown as TAP comments
T="tmux -L ${TMUX_NAME:-histtop-vm}"
export TERM=screen LANG=C.UTF-8
trap '$T kill-server 2>/dev/null' EXIT

screen() { $T capture-pane -p -t t; }
wait_for() {	# PATTERN: up to 20 s
	i=0
	while [ $i -lt 200 ]; do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	screen | sed 's/^/#   | /'
	return 1
}
