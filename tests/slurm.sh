# epi fleet calibrate and status against a real Slurm (Debian's slurm-wlm
# and munge): slurmctld and three slurmd (nodes n1..n3, one host) on
# unprivileged ports, with a slurm.conf and a munge key in a temporary
# folder, all stopped at the end. Short calibrations (two operations, the
# current frequency, a constant meter) as one job array; a task that fails,
# one cancelled and --resume; nodes chosen by --nodes.
. "$(dirname "$0")/lib.sh"

D="$tmp/slurm"
mkdir -p "$D/state" "$D/spool"
stop_slurm() {
	for f in "$D"/slurmd-*.pid "$D/slurmctld.pid" "$D/munged.pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 0.2
	rm -rf "$tmp"
}
trap stop_slurm EXIT

for c in munged slurmctld slurmd sbatch sinfo scontrol scancel; do
	command -v $c >/dev/null || { bad "slurm: $c is installed (make check installs slurm-wlm and munge)"; finish; exit 1; }
done
if [ "$(id -u)" != 0 ]; then
	bad "slurm: the Slurm daemons of this test run as root"
	finish
	exit 1
fi

H=$(hostname -s)
base=$((20000 + $$ % 20000))
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$D/munge.key"
munged -f --key-file="$D/munge.key" --socket="$D/munge.sock" --pid-file="$D/munged.pid" \
	--log-file="$D/munged.log" --seed-file="$D/munged.seed" || bad "slurm: munged starts"
cat >"$D/slurm.conf" <<CONF
ClusterName=epitest
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
AuthType=auth/munge
AuthInfo=socket=$D/munge.sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd-%n.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=n1 NodeHostname=$H NodeAddr=127.0.0.1 Port=$((base + 1)) CPUs=2 State=UNKNOWN
NodeName=n2 NodeHostname=$H NodeAddr=127.0.0.1 Port=$((base + 2)) CPUs=2 State=UNKNOWN
NodeName=n3 NodeHostname=$H NodeAddr=127.0.0.1 Port=$((base + 3)) CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=n[1-3] Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$D/slurm.conf" EPI_FLEET_POLL=0.3
slurmctld -c -f "$SLURM_CONF" && for n in n1 n2 n3; do slurmd -N $n -f "$SLURM_CONF"; done
i=0
while [ "$(sinfo -h -o '%D %T' 2>/dev/null)" != "3 idle" ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
if [ "$(sinfo -h -o '%D %T' 2>/dev/null)" = "3 idle" ]; then
	ok "slurm: slurmctld and three slurmd up, n[1-3] idle"
else
	bad "slurm: slurmctld and three slurmd up, n[1-3] idle" "$D/slurmctld.log"
	finish
	exit 1
fi

CAL="--freqs current --ops add.i64,mul.i64 -m const:50 --max-runs 3"

# every node of the partition, one task each, a table each
T="$tmp/t1"
run_epi "fleet calibrate: a table per node" 0 "fleet job [0-9]*, tables in $T: 3 done, 0 failed" -- fleet calibrate -d "$T" -- $CAL
grep -q "submitted job [0-9]*: 3 tasks, one per node" "$tmp/err" && ok "fleet calibrate: one array of three tasks" ||
	bad "fleet calibrate: one array of three tasks" "$tmp/err"
for n in n1 n2 n3; do grep -q "^  $n  *done  *$T/$n.xml" "$tmp/out" || bad "fleet calibrate: $n done" "$tmp/out"; done
run_epi "fleet calibrate: the tables load, one model" 0 "^fleet: 3 node tables in $T" -- fleet report -d "$T"
grep -q "^current  *add.i64  *time  *3 " "$tmp/out" && ok "fleet report on the calibrated tables: add.i64 on three nodes" ||
	bad "fleet report on the calibrated tables: add.i64 on three nodes" "$tmp/out"
run_epi "fleet status: the job, later" 0 '"done": 3' -- fleet status -d "$T" --format json

# --nodes: only those
T="$tmp/t2"
run_epi "fleet calibrate --nodes n[1,3], epi-calibrate's options among its own" 0 "2 done, 0 failed" -- \
	fleet calibrate --nodes 'n[1,3]' $CAL -d "$T"
[ -f "$T/n1.xml" ] && [ -f "$T/n3.xml" ] && [ ! -f "$T/n2.xml" ] && ok "fleet calibrate --nodes: n1 and n3 only" ||
	bad "fleet calibrate --nodes: n1 and n3 only"

# a calibration that fails on every node: each named with epi-calibrate's error
T="$tmp/t3"
run_epi "fleet calibrate: tasks that fail" 1 "3 of 3 nodes failed: \`epi fleet calibrate --resume -d $T\` resubmits them" -- \
	fleet calibrate -d "$T" -- --freqs current --ops no.such.op -m const:50
grep -q "^  n2  *failed  *failed (exit 1:0, NonZeroExitCode): epi calibrate: error: unknown operation 'no.such.op'" "$tmp/out" &&
	ok "fleet calibrate: a failed task says why, by node" || bad "fleet calibrate: a failed task says why, by node" "$tmp/out"

# a task cancelled while it runs: reported by node; --resume resubmits it alone
T="$tmp/t4"
run_epi "fleet calibrate --no-wait: the job id" 0 "^[0-9][0-9]*$" -- fleet calibrate -d "$T" --no-wait -- \
	--freqs current --ops add.i64 -m const:50 --max-runs 10 --precision 0.00001 --run-time 0.1
J=$(cat "$tmp/out")
i=0
while ! "$E" fleet status -d "$T" 2>/dev/null | grep -q "^  n2  *running" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
run_epi "fleet calibrate --resume while the job runs" 1 "job $J still has [0-9] tasks* queued or running" -- \
	fleet calibrate --resume -d "$T" -- $CAL
scancel "${J}_1"
i=0
while "$E" fleet status -d "$T" 2>/dev/null | grep -q "running\|queued" && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
run_epi "fleet status: the cancelled task" 0 "^  n2  *failed  *cancelled" -- fleet status -d "$T"
grep -q "2 done, 1 failed" "$tmp/out" && ok "fleet status: the others done" || bad "fleet status: the others done" "$tmp/out"
run_epi "fleet calibrate --resume: the missing node alone" 0 "1 done, 0 failed" -- fleet calibrate --resume -d "$T" -- $CAL
grep -q "submitted job [0-9]*: 1 task, one per node" "$tmp/err" && grep -q "^  n2  *done" "$tmp/out" &&
	ok "fleet calibrate --resume: one task, n2's" || bad "fleet calibrate --resume: one task, n2's" "$tmp/err"
[ -f "$T/n1.xml" ] && [ -f "$T/n2.xml" ] && [ -f "$T/n3.xml" ] && ok "fleet calibrate --resume: every table there" ||
	bad "fleet calibrate --resume: every table there"
run_epi "fleet calibrate --resume with nothing missing" 0 "nothing to resubmit" -- fleet calibrate --resume -d "$T" -- $CAL

# --per-model: the nodes identified first (one array of epi probe), then
# one node calibrated per CPU model and microcode: here all three are alike
T="$tmp/t6"
run_epi "fleet calibrate --per-model" 0 "1 done, 0 failed" -- fleet calibrate -d "$T" --per-model -- $CAL
grep -q "identifying 3 nodes (job [0-9]*) to calibrate one per CPU model and microcode" "$tmp/err" &&
	grep -q "per model: .*, microcode .*: n1 for n1, n2, n3" "$tmp/err" && ok "fleet calibrate --per-model: one node for the three" ||
	bad "fleet calibrate --per-model: one node for the three" "$tmp/err"
[ -f "$T/n1.xml" ] && [ ! -f "$T/n2.xml" ] && [ -f "$T/.fleet/identify/n3.json" ] &&
	ok "fleet calibrate --per-model: n1's table, every node's identification" ||
	bad "fleet calibrate --per-model: n1's table, every node's identification"

# a job's energy per node: srun epi measure, one per node of the allocation
srun -N 3 "$E" measure -m const:50 --format csv -- true >"$tmp/out" 2>"$tmp/err"
[ "$(grep -c '^1,const,system,' "$tmp/out")" = 3 ] && ok "srun epi measure: a measurement per node" ||
	bad "srun epi measure: a measurement per node" "$tmp/out"

# --meter slurm: inside a job step of this cluster, which gathers no energy:
# said so; outside a step: said so
srun -N 1 -w n1 "$E" measure --meter slurm -- true >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 1 ] && grep -q "this cluster does not gather energy (AcctGatherEnergyType acct_gather_energy/none in slurm.conf)" "$tmp/err" &&
	ok "measure --meter slurm in a step of a cluster without energy: said so" ||
	bad "measure --meter slurm in a step of a cluster without energy: said so (exit $st)" "$tmp/err"
run_epi "measure --meter slurm outside a step" 1 "not inside a Slurm job step" -- measure --meter slurm -- true
# and against an accounting that gathers energy, emulated: a step at 100 W
A="$tmp/acct"
mkdir -p "$A"
date +%s.%N >"$A/t0"
cat >"$A/scontrol" <<FAKE
#!/bin/sh
[ "\$*" = "show config" ] || exit 1
printf 'AcctGatherEnergyType    = acct_gather_energy/rapl\nAcctGatherNodeFreq      = 1 sec\n'
FAKE
cat >"$A/sstat" <<FAKE
#!/bin/sh
[ "\$*" = "-n -P -j 77.0 -o ConsumedEnergyRaw" ] || { echo "sstat: unexpected \$*" >&2; exit 1; }
echo "\$(date +%s.%N) \$(cat "$A/t0")" | awk '{printf "%d\\n", 100 * (\$1 - \$2)}'
FAKE
chmod +x "$A/scontrol" "$A/sstat"
PATH="$A:$PATH" SLURM_JOB_ID=77 SLURM_STEP_ID=0 "$E" measure --meter slurm --format csv -- sleep 1 >"$tmp/out" 2>"$tmp/err"
st=$?
# (the counter is read by a process of its own before and after the
# command, so that on a loaded machine its joules span more than the
# command's seconds: the power is what stays 100 W)
if [ $st = 0 ] && awk -F, 'NR == 2 && $2 == "slurm" && $3 == "step" && $5 >= 80 && $6 >= 90 && $6 <= 110 {f = 1} END {exit !f}' "$tmp/out"; then
	ok "measure --meter slurm: the step's consumed energy from sstat (100 W for 1 s)"
else
	bad "measure --meter slurm: the step's consumed energy from sstat (exit $st)" "$tmp/out"
fi

# a drained node is left out, said so
scontrol update NodeName=n3 State=DRAIN Reason=epi-test
T="$tmp/t7"
run_epi "fleet calibrate: a drained node left out" 0 "2 done, 0 failed" -- fleet calibrate -d "$T" $CAL
grep -q "warning: nodes left out, not up: n3 (drain" "$tmp/err" && [ ! -f "$T/n3.xml" ] &&
	ok "fleet calibrate: the drained node named" || bad "fleet calibrate: the drained node named" "$tmp/err"
scontrol update NodeName=n3 State=RESUME

# where there is no job, and where there is no Slurm
run_epi "fleet status without a job" 1 "no fleet job in '$tmp/t0'" -- fleet status -d "$tmp/t0"
PATH=/nonexistent "$E" fleet calibrate -d "$tmp/t5" -- $CAL >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 1 ] && grep -q "sinfo: not found; epi fleet runs Slurm's commands" "$tmp/err" && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	ok "fleet calibrate without Slurm: said so" || bad "fleet calibrate without Slurm: said so (exit $st)" "$tmp/err"

finish
