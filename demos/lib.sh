# SPDX-License-Identifier: GPL-2.0
# Guest side of the demos: sourced by demos/scenarios/*.sh, which start
# their own load in the background and then call demo_histtop.
#
#   demo_histtop ARGS...   interactive (the recorder's key presses drive it),
#                          or with DEMO_MODE=batch four text frames of 25 rows, 1 s apart
#   demo_bg SECS CMD...    run CMD, then sleep SECS, in a background loop
export LANG=C.UTF-8
cd /tmp || exit 1

demo_bg() {
	_pause=$1
	shift
	(while :; do "$@" >/dev/null 2>&1; sleep "$_pause"; done) &
}

demo_histtop() {
	if [ "${DEMO_MODE:-}" = batch ]; then
		sleep 1
		histtop -b -n 4 -d 1 -T 25 "$@"
	else
		# the recorder starts its clock at this line
		echo HISTTOP-DEMO-START
		histtop "$@"
		echo HISTTOP-DEMO-END
	fi
}
