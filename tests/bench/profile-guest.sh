#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/bench/profile: N writes to /dev/null with TRIGGER on
# syscalls:sys_enter_write, or with none ("none").
#   sh /tests/bench/profile-guest.sh TRIGGER|none N
. /tests/vm/tap.sh
reset_triggers
[ "$1" = none ] || trig syscalls/sys_enter_write "$1"
evcost "$2" 1
