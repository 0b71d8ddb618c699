# End-to-end tests of the epi command (probe, measure, freq): the sanitized build against this machine and against fake
# cpufreq trees under EPI_SYSROOT, including pin then SIGINT/SIGTERM/SIGHUP,
# and SIGKILL followed by `epi freq --restore`.
. "$(dirname "$0")/lib.sh"

run_epi "epi --help" 0 "measure" -- --help
run_epi "epi unknown command" 2 "unknown command 'bogus'" -- bogus
run_epi "epi probe (this machine)" 0 "energy meters:" -- probe
run_epi "epi probe --format json" 0 '"energy_measurable"' -- probe --format json

# a machine with nothing: both absences explained
EPI_SYSROOT="$tmp/bare" run_epi "probe explains a missing meter" 0 "powercap  no   no RAPL" -- probe
EPI_SYSROOT="$tmp/bare" run_epi "probe explains missing frequency control" 0 "no CPU frequency control" -- probe
# a fake machine's caches are its sysfs's alone (this processor's cpuid is not its)
EPI_SYSROOT="$tmp/bare" run_epi "probe: caches not known" 0 "^data caches of CPU 0: L1 not known, L2 not known, L3 not known$" -- probe
C="$tmp/caches"
mkdir -p "$C/proc"
cp "$tmp/bare/proc/cpuinfo" "$C/proc/cpuinfo"
for x in "0 1 Data 48K" "1 1 Instruction 64K" "2 2 Unified 2048K" "3 3 Unified 96M"; do
	set -- $x
	d="$C/sys/devices/system/cpu/cpu0/cache/index$1"
	mkdir -p "$d"
	echo "$2" >"$d/level"
	echo "$3" >"$d/type"
	echo "$4" >"$d/size"
done
EPI_SYSROOT="$C" run_epi "probe: caches from sysfs" 0 "^data caches of CPU 0: L1 48 KiB, L2 2 MiB, L3 96 MiB$" -- probe
EPI_SYSROOT="$C" run_epi "probe --format json: caches in bytes" 0 '"l2": 2097152' -- probe --format json

run_epi "measure --meter none reports time" 0 "^1,none,time,[0-9.]*,,,0$" -- measure --meter none --format csv -- sleep 0.05
head -1 "$tmp/out" | grep -qx "run,meter,domain,seconds,joules,watts,estimated" && ok "measure CSV columns" || bad "measure CSV columns" "$tmp/out"
"$top/build/san/bin/epi-measure" --meter none --repeat 3 --format json -- true >"$tmp/out" 2>"$tmp/err" &&
	grep -q '"runs": 3' "$tmp/out" && ok "epi-measure link, --repeat 3, JSON summary" || bad "epi-measure link" "$tmp/err"
run_epi "measure const:W is marked estimated" 0 "(estimated)" -- measure --meter const:40 -- true
run_epi "measure passes the exit status through" 7 "exited with status 7" -- measure --meter none -- sh -c "exit 7"
run_epi "measure a command that does not exist" 127 "cannot run 'no-such-cmd'" -- measure --meter none -- no-such-cmd
run_epi "measure unknown meter" 1 "unknown meter 'rapl9'" -- measure --meter rapl9 -- true
run_epi "measure unknown domain" 1 "has no domain 'gpu'" -- measure --meter const:5 --domain gpu -- true
run_epi "measure without a command" 2 "no command to measure" -- measure --meter none
EPI_SYSROOT="$tmp/bare" run_epi "measure --freq without cpufreq" 1 "cannot pin the frequency to 2GHz: no CPU frequency control" -- measure --meter none --freq 2GHz -- true

fake_freq_tree "$F"
export EPI_STATE_DIR="$F/state"
EPI_SYSROOT="$F" run_epi "freq lists the policies" 0 "acpi-cpufreq" -- freq
EPI_SYSROOT="$F" run_epi "freq --set an unoffered frequency" 1 "does not offer 2 GHz; it offers: 1.6 GHz, 1.8 GHz, 2.133 GHz, 2.4 GHz" -- freq --set 2GHz
EPI_SYSROOT="$F" run_epi "freq --set pins" 0 "pinned CPUs 1 to 1.8 GHz" -- freq --set 1.8GHz --cpus 1 --no-boost
if [ "$(cat "$P1/scaling_governor")" = userspace ] && [ "$(cat "$P1/scaling_setspeed")" = 1800000 ] &&
	[ "$(cat "$F/sys/devices/system/cpu/cpufreq/boost")" = 0 ]; then ok "freq --set wrote governor, speed, boost"; else bad "freq --set wrote governor, speed, boost"; fi
EPI_SYSROOT="$F" run_epi "freq --set twice refuses" 1 "run \`epi freq --restore\` first" -- freq --set 1.6GHz
EPI_SYSROOT="$F" run_epi "freq --restore" 0 "restored" -- freq --restore
if [ "$(cat "$P1/scaling_governor")" = schedutil ] && [ "$(cat "$F/sys/devices/system/cpu/cpufreq/boost")" = 1 ] &&
	[ ! -e "$F/state/cpufreq-state" ]; then ok "freq --restore put everything back"; else bad "freq --restore put everything back"; fi
# a state file naming another file: refused with its line, nothing written, the file kept
printf 'hello\n' > "$F/motd"
printf '# epi cpufreq state 1\n%s\t2400000\n%s\tx\n' "$P1/scaling_max_freq" "$F/motd" > "$F/state/cpufreq-state"
chmod 600 "$F/state/cpufreq-state"
EPI_SYSROOT="$F" run_epi "freq --restore refuses a planted path" 1 "cpufreq-state' line 3: '$F/motd' is not a CPU frequency setting epi saves" -- freq --restore
[ "$(cat "$F/motd")" = hello ] && [ -e "$F/state/cpufreq-state" ] && ok "planted path: nothing written, state kept" ||
	bad "planted path: nothing written, state kept"
rm -f "$F/state/cpufreq-state"
EPI_SYSROOT="$F" run_epi "measure --freq restores at exit" 0 "1.8 GHz requested" -- measure --meter none --freq 1.8GHz -- true
[ "$(cat "$P1/scaling_governor")" = schedutil ] && ok "governor back after measure" || bad "governor back after measure"

# pinned while a command runs, then a signal: restored; SIGKILL: restored by --restore
for sig in INT TERM HUP KILL; do
	fake_freq_tree "$F"
	EPI_SYSROOT="$F" "$E" measure --meter none --freq 1.6GHz -- sleep 3 >/dev/null 2>"$tmp/err" &
	pid=$!
	i=0
	while [ "$(cat "$P1/scaling_governor")" != userspace ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	kill -s $sig $pid
	wait $pid 2>/dev/null
	if [ $sig = KILL ]; then
		if [ "$(cat "$P1/scaling_governor")" = userspace ] && [ -e "$F/state/cpufreq-state" ] &&
			EPI_SYSROOT="$F" "$E" freq --restore >/dev/null 2>&1 && [ "$(cat "$P1/scaling_governor")" = schedutil ] &&
			[ "$(cat "$P1/scaling_setspeed")" = 1600000 ] && [ ! -e "$F/state/cpufreq-state" ]; then
			ok "SIGKILL while pinned, then freq --restore"
		else
			bad "SIGKILL while pinned, then freq --restore" "$tmp/err"
		fi
	elif [ "$(cat "$P1/scaling_governor")" = schedutil ] && [ ! -e "$F/state/cpufreq-state" ]; then
		ok "SIG$sig while pinned restores the frequencies"
	else
		bad "SIG$sig while pinned restores the frequencies" "$tmp/err"
	fi
done
unset EPI_STATE_DIR

# epi measure against a powercap tree whose counters a helper process
# advances at known powers (40 W package, 5 W dram; 16 J range: wraps)
# watts within 1% of the truth for every domain and the total, over 2 s (5
# wraps), plus what the helper's longest pause between writes could make its
# files lag at the first and the last read (a busy machine: tens of ms; a
# pause over 100 ms makes the check too loose to catch a wrong wrap, 20%
# here, so the measurement is made again, with a new helper, up to 3 times)
for attempt in 1 2 3; do
	fake_powercap_tree "$PC"
	EPI_SYSROOT="$PC" "$top/build/tests/fakepower" $PKG 40 16000001 /sys/class/powercap/intel-rapl:0:0/energy_uj 5 16000001 &
	hp=$!
	i=0
	while [ ! -e "$PC/fakepower.ready" ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i + 1)); done
	EPI_SYSROOT="$PC" "$E" measure --meter powercap --format csv -- sleep 2 >"$tmp/out" 2>"$tmp/err"
	st=$?
	gap=$(cat "$PC/fakepower.maxgap")
	awk -v g="$gap" 'BEGIN { exit !(g < 0.1) }' && break
	[ $attempt -lt 3 ] && { kill $hp; wait $hp 2>/dev/null; }
done
if [ $st -eq 0 ] &&
	awk -F, -v gap="$gap" 'function near(x, t) { tol = 0.01 + 2 * gap / $4; return x > (1 - tol) * t && x < (1 + tol) * t }
		$3 == "package-0" { a = near($6, 40) } $3 == "package-0/dram" { b = near($6, 5) } $3 == "total" { c = near($6, 45) }
		END { exit !(a && b && c && NR == 4 && gap < 0.1) }' "$tmp/out"; then
	ok "measure: powercap tree advanced by a helper process, watts within 1% and the helper's lag"
else
	echo "helper's longest pause between writes: $gap s (3 attempts)" >>"$tmp/out"
	bad "measure: powercap tree advanced by a helper process, watts within 1% and the helper's lag" "$tmp/out"
fi
# the meter fails mid-run (the counter file goes away): an error, the run
# reported as partial with its metered window, no further runs
EPI_SYSROOT="$PC" run_epi "measure: a meter failing mid-run" 1 "run 1: cannot read '.*energy_uj': No such file or directory; the run is reported as partial; runs 2-3 not made" -- \
	measure --meter powercap --repeat 3 -- sh -c "sleep 0.2; kill $hp; sleep 0.05; rm '$PC$PKG'; sleep 0.2"
grep -q "package-0  .*(partial: metered 0\.[0-9]* s)" "$tmp/out" && grep -q "package-0  *no complete run" "$tmp/out" &&
	ok "measure: the partial run is reported as partial" || bad "measure: the partial run is reported as partial" "$tmp/out"
kill $hp 2>/dev/null
wait $hp 2>/dev/null
# a counter that does not move over many update intervals is flagged
fake_powercap_tree "$PC"
EPI_SYSROOT="$PC" run_epi "measure: a stalled counter is flagged" 0 "the package-0 counter did not advance in 0\.[0-9]* s" -- \
	measure --meter powercap -- sleep 0.2
grep -q "package-0 .*(counter stalled)" "$tmp/out" && EPI_SYSROOT="$PC" "$E" measure --meter powercap --format json -- sleep 0.1 2>/dev/null |
	grep -q '"stalled": true' && ok "measure: stalled in the table and the JSON" || bad "measure: stalled in the table and the JSON" "$tmp/out"

# permission denied, as an unprivileged user (root reads any file): the
# error names the file and the way to grant access
if command -v setpriv >/dev/null; then
	U=$(mktemp -d /tmp/epi-user-XXXXXX)
	cp "$E" "$U/epi"
	fake_powercap_tree "$U/m"
	mkdir -p "$U/m/dev/cpu/0" "$U/state"
	echo >"$U/m/dev/cpu/0/msr"
	fake_freq_tree "$U/f"
	chmod -R a+rX "$U"
	chmod 400 "$U/m$PKG"
	chmod 600 "$U/m/dev/cpu/0/msr"
	chown 65534 "$U/state"
	user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$U/epi" "$@"; }
	run_user() {
		saved=$P
		P=user
		expect "$@"
		P=$saved
	}
	EPI_SYSROOT="$U/m" run_user "measure as a user: powercap permission denied" 1 \
		"cannot read '.*intel-rapl:0/energy_uj': permission denied; energy_uj is readable by root only.*sudo chmod o+r /sys/class/powercap/\*/energy_uj.*SUBSYSTEM==\"powercap\", ACTION==\"add\", RUN+=\"/bin/chmod o+r /sys%p/energy_uj\".*--meter perf.*kernel.perf_event_paranoid=0" -- measure --meter powercap -- true
	EPI_SYSROOT="$U/m" run_user "measure as a user: msr permission denied" 1 \
		"cannot open '.*/dev/cpu/0/msr': permission denied; the msr device needs root or CAP_SYS_RAWIO" -- measure --meter msr -- true
	EPI_SYSROOT="$U/m" run_user "measure as a user: auto falls back to time, says why" 0 "no energy meter is usable here" -- measure -- true
	EPI_SYSROOT="$U/m" run_user "probe as a user: every reason" 0 "powercap  no   cannot read .*permission denied" -- probe
	EPI_SYSROOT="$U/m" run_user "probe as a user: how to get access to powercap" 0 "udev rule .*--meter perf.*perf_event_paranoid=0" -- probe
	EPI_STATE_DIR="$U/state" EPI_SYSROOT="$U/f" run_user "freq --set as a user: permission denied" 1 \
		"cannot write '.*/policy0/scaling_governor': permission denied; changing CPU frequencies needs root" -- freq --set 1.8GHz
	[ "$(cat "$U/f/sys/devices/system/cpu/cpufreq/policy0/scaling_governor")" = schedutil ] && [ ! -e "$U/state/cpufreq-state" ] &&
		ok "freq --set as a user leaves nothing changed" || bad "freq --set as a user leaves nothing changed"
	rm -rf "$U"
else
	bad "setpriv (util-linux) is needed to test permission errors as a user"
fi

finish
