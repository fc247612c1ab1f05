# SPDX-License-Identifier: GPL-2.0
# bash completion for histtop (installed as bash-completion/completions/histtop).
#
# Options come from `histtop --help`, so they are always the binary's own.
# -e completes SYSTEM:EVENT, -k/-v/-s the event's fields and the kernel's
# field modifiers, --instance the instances, all read from tracefs: the
# --tracefs DIR on the command line, else /sys/kernel/tracing when it is
# mounted and readable.  Nothing is ever mounted: /sys/kernel/debug/tracing
# is not looked at (touching it automounts tracefs).  Needs bash only;
# paths with blanks are not completed.

# Prints the options of `CMD --help`, one a line: "NAME" or "NAME ARG" for
# those that take an argument.
_histtop_options()
{
	local line re='^ +(-([A-Za-z]), +)?--([a-z][-a-z]*)( [A-Z])?'

	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		if [[ -n ${BASH_REMATCH[2]} ]]; then
			echo "-${BASH_REMATCH[2]}${BASH_REMATCH[4]:+ ARG}"
		fi
		echo "--${BASH_REMATCH[3]}${BASH_REMATCH[4]:+ ARG}"
	done <<<"$(command "$1" --help 2>/dev/null)"
}

# Prints the argument of the last LONG (--LONG ARG, --LONG=ARG) or SHORT
# (-X ARG, -XARG) option among WORDS.
_histtop_arg()	# LONG SHORT WORDS...
{
	local long=--$1 short=$2 i w val=
	shift 2
	local -a words=("$@")

	for ((i = 0; i < ${#words[@]}; i++)); do
		w=${words[i]}
		if [[ $w == "$long" || ( -n $short && $w == "$short" ) ]]; then
			val=${words[i + 1]-}
		elif [[ $w == "$long"=* ]]; then
			val=${w#*=}
		elif [[ -n $short && $w == "$short"?* ]]; then
			val=${w#"$short"}
		fi
	done
	echo "$val"
}

# The tracefs root for this command line (WORDS...).
_histtop_tracefs()
{
	local dir

	dir=$(_histtop_arg tracefs "" "$@")
	dir=${dir:-/sys/kernel/tracing}
	dir=${dir/#\~/$HOME}
	[[ -r $dir/events && -x $dir/events ]] || return 1
	echo "$dir"
}

# The SYSTEM:EVENT given with -e on this command line (WORDS...).
_histtop_event()
{
	local ev

	ev=$(_histtop_arg event -e "$@")
	[[ $ev == *[:/]* ]] || return 1
	echo "${ev/\//:}"
}

# Prints the fields of the event's format file, one a line.
_histtop_fields()	# TRACEFS SYSTEM:EVENT
{
	local line name

	while IFS= read -r line; do
		[[ $line == [[:space:]]field:* ]] || continue
		line=${line#*field:}
		line=${line%%;*}
		name=${line##*[ *]}
		echo "${name%%\[*}"
	done <"$1/events/${2%%:*}/${2#*:}/format" 2>/dev/null
}

# Prints the field modifiers the kernel's README lists after "appending any
# of the following modifiers" (".hex", ...), else those of Linux 6.1.
_histtop_modifiers()	# TRACEFS
{
	local line in= found=

	if [[ -r $1/README ]]; then
		while IFS= read -r line; do
			if [[ $line == *"following modifiers"* ]]; then
				in=1
			elif [[ -n $in && $line =~ ^[[:space:]]+(\.[a-z][-a-z]*=?) ]]; then
				echo "${BASH_REMATCH[1]}"
				found=1
			elif [[ -n $in && -n $found && $line == *[^[:space:]]* ]]; then
				break
			fi
		done <"$1/README"
	fi
	[[ -n $found ]] ||
		printf '%s\n' .hex .sym .sym-offset .execname .syscall .log2 .buckets= .usecs \
			.percent .graph
}

_histtop()
{
	local cmd=${1:-histtop} cur prev i w opt val pre item tfs ev c
	local -a words=() cands=() opts=()

	# bash splits words at ':' and '=' (COMP_WORDBREAKS): join them back
	# where COMP_LINE shows no blank between them (without COMP_LINE, always)
	local line=${COMP_LINE-} glued cw=0
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		glued=1
		if [[ -n ${COMP_LINE+set} ]]; then
			[[ $line == [[:blank:]]* ]] && glued=
			line=${line#"${line%%[^[:blank:]]*}"}
			line=${line#"$w"}
		fi
		if ((i > 1)) && [[ -n $glued ]] &&
		   [[ $w =~ ^[:=]+$ || ${COMP_WORDS[i - 1]} =~ ^[:=]+$ ]]; then
			words[-1]+=$w
		else
			words+=("$w")
		fi
		((i == COMP_CWORD)) && cw=$((${#words[@]} - 1))
	done
	cur=${words[cw]-}
	prev=
	((cw > 0)) && prev=${words[cw - 1]}

	# (no pipeline that ends early, as grep -q would: a completion function
	# whose child dies of SIGPIPE leaves readline inserting Tabs; and no
	# process substitution, which needs /dev/fd)
	mapfile -t opts <<<"$(_histtop_options "$cmd")"
	opt= pre=
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*} val=${cur#*=} pre=$opt=
	elif [[ $prev == -* && " ${opts[*]/%/,} " == *" $prev ARG, "* ]]; then
		opt=$prev val=$cur
	elif [[ $cur == -* ]]; then
		COMPREPLY=()
		for w in "${opts[@]}"; do
			w=${w% ARG}
			[[ $w == "$cur"* ]] && COMPREPLY+=("$w")
		done
		return 0
	else
		COMPREPLY=()
		return 0
	fi

	tfs=$(_histtop_tracefs "${words[@]}")
	COMPREPLY=()
	case $opt in
	-e|--event)
		[[ -n $tfs ]] || return 0
		if [[ $val == *:* ]]; then
			for w in "$tfs/events/${val%%:*}"/*/; do
				[[ -d $w ]] || continue
				w=${w%/}
				cands+=("${val%%:*}:${w##*/}")
			done
		else
			for w in "$tfs"/events/*/; do
				[[ -d $w ]] || continue
				w=${w%/}
				cands+=("${w##*/}:")
			done
			compopt -o nospace 2>/dev/null
		fi
		;;
	-k|--keys|-v|--vals|-s|--sort)
		[[ -n $tfs ]] || return 0
		ev=$(_histtop_event "${words[@]}") || return 0
		# complete the last item of the comma list
		if [[ $val == *,* ]]; then
			item=${val##*,} pre+=${val%,*},
		else
			item=$val
		fi
		if [[ $item == *.* ]]; then
			case $opt in
			-s|--sort) c=$(printf '%s\n' .ascending .descending) ;;
			*) c=$(_histtop_modifiers "$tfs") ;;
			esac
			for w in $c; do
				cands+=("${item%%.*}$w")
			done
		else
			for w in $(_histtop_fields "$tfs" "$ev"); do
				cands+=("$w")
			done
			case $opt in
			-k|--keys) cands+=(stacktrace) ;;
			*) cands+=(hitcount) ;;
			esac
		fi
		val=$item
		compopt -o nospace 2>/dev/null
		;;
	--instance)
		[[ -n $tfs ]] || return 0
		for w in "$tfs"/instances/*/; do
			[[ -d $w ]] || continue
			w=${w%/}
			cands+=("${w##*/}")
		done
		;;
	--tracefs|--replay)
		compopt -o filenames 2>/dev/null
		mapfile -t cands <<<"$(compgen -d -- "$val")"
		;;
	--export|--config|--textfile)
		compopt -o filenames 2>/dev/null
		mapfile -t cands <<<"$(compgen -f -- "$val")"
		;;
	*)
		return 0
		;;
	esac

	# keep the candidates that fit, whole words as typed (none with bytes
	# that are not printable: an instance is named by whoever made it) ...
	for w in "${cands[@]}"; do
		[[ -n $w && $w == "$val"* && $w != *[^[:print:]]* ]] && COMPREPLY+=("$pre$w")
	done
	# ... less what bash does not replace: up to the last ':' or '=' it split at
	c=${cur%"${cur##*[:=]}"}
	if [[ -n $c ]]; then
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]#"$c"}
		done
	fi
	return 0
}
complete -F _histtop histtop
