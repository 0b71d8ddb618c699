# tests/lib.sh: what every end-to-end test file shares, sourced first by
# each (tests/*.sh, run alone as `sh tests/FILE.sh` or by tests/run.sh):
# the sanitized builds, a temporary folder removed at exit, ok/bad and their
# counts, expect (epi-predict) and run_epi (epi) checking an exit status,
# a line of output and one-line errors, fake machines under EPI_SYSROOT,
# and finish, the file's closing line ("NAME: N passed, N failed").
top=$(cd "$(dirname "$0")/.." && pwd)
export EPI_TOP="$top"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P="$top/build/san/bin/epi-predict"
E="$top/build/san/bin/epi"
ex="$top/data/examples"
ref="$top/data/rr8416-q6600.xml"

# expect NAME STATUS PATTERN -- ARGS: exit status and a line of stderr/stdout matching PATTERN
expect() {
	name=$1 want=$2 pat=$3
	shift 4
	"$P" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne "$want" ]; then
		bad "$name (exit $st, want $want)" "$tmp/err"
	elif ! cat "$tmp/out" "$tmp/err" | grep -q -- "$pat"; then
		bad "$name (no '$pat')" "$tmp/err"
	elif [ "$want" -ne 0 ] && [ "$(wc -l <"$tmp/err")" -gt 2 ]; then
		bad "$name (error is not one line)" "$tmp/err"
	elif grep -q "AddressSanitizer\|runtime error" "$tmp/err"; then
		bad "$name (sanitizer report)" "$tmp/err"
	else
		ok "$name"
	fi
}


# run_epi NAME STATUS PATTERN -- ARGS: expect with bin/epi
run_epi() {
	saved=$P
	P=$E
	expect "$@"
	P=$saved
}

# a machine with nothing (no meter, no cpufreq)
mkdir -p "$tmp/bare/proc"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Bare\n' >"$tmp/bare/proc/cpuinfo"

F="$tmp/freq"
P1="$F/sys/devices/system/cpu/cpufreq/policy1"
PC="$tmp/pc"
PKG=/sys/class/powercap/intel-rapl:0/energy_uj

# fake acpi-cpufreq machine
fake_freq_tree() {
	r=$1
	rm -rf "$r"
	mkdir -p "$r/proc" "$r/state"
	cp "$tmp/bare/proc/cpuinfo" "$r/proc/cpuinfo"
	for i in 0 1; do
		d="$r/sys/devices/system/cpu/cpufreq/policy$i"
		mkdir -p "$d"
		echo "$i" >"$d/affected_cpus"
		echo acpi-cpufreq >"$d/scaling_driver"
		echo schedutil >"$d/scaling_governor"
		echo "ondemand userspace performance schedutil" >"$d/scaling_available_governors"
		echo "2400000 2133000 1800000 1600000" >"$d/scaling_available_frequencies"
		echo 1600000 >"$d/cpuinfo_min_freq"
		echo 2400000 >"$d/cpuinfo_max_freq"
		echo 1600000 >"$d/scaling_min_freq"
		echo 2400000 >"$d/scaling_max_freq"
		echo 2400000 >"$d/scaling_cur_freq"
		echo "<unsupported>" >"$d/scaling_setspeed"
	done
	echo 1 >"$r/sys/devices/system/cpu/cpufreq/boost"
}

# epi measure against a powercap tree whose counters a helper process
# advances at known powers (40 W package, 5 W dram; 16 J range: wraps)
fake_powercap_tree() {
	r=$1
	rm -rf "$r"
	mkdir -p "$r/proc"
	cp "$tmp/bare/proc/cpuinfo" "$r/proc/cpuinfo"
	for z in "intel-rapl:0 package-0" "intel-rapl:0:0 dram"; do
		set -- $z
		d="$r/sys/class/powercap/$1"
		mkdir -p "$d"
		echo "$2" >"$d/name"
		echo 16000000 >"$d/max_energy_range_uj"
		echo 80000000 >"$d/constraint_0_max_power_uw"
		echo 8000000 >"$d/energy_uj"
	done
}

# finish: the file's closing line, and its status
finish() {
	echo "$(basename "$0" .sh): $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
