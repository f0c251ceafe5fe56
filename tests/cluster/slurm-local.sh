#!/usr/bin/env bash
# slurm-local.sh start|stop|clean DIR -- throwaway single-node Slurm 22.05 (Debian 12) as root, no systemd.
# Env knobs: SLURM_LOCAL_PORT (slurmctld port; slurmd +1, slurmrestd +2; default 16817)
#   SLURM_LOCAL_CPUS=N  advertise N CPUs (more concurrent trivial jobs)   SLURM_LOCAL_GPUS=N  fake gpu GRES
#   SLURM_LOCAL_CGROUP=1 proctrack/task cgroup (needs cgroup v1 mounts)   SLURM_LOCAL_REST=1  slurmrestd + JWT
# Then: export SLURM_CONF=DIR/etc/slurm.conf  (printed by start)
set -euo pipefail
# Skipped (77), with a message, where Debian's Slurm and munge packages are absent (scripts/setup installs them).
for tool in slurmctld slurmd sbatch squeue munged mungekey; do
  command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null 2>&1 ||
    { echo "SKIP: $tool is not installed (scripts/setup installs slurmctld, slurmd, slurm-client, munge)" >&2; exit 77; }
done
export PATH=$PATH:/usr/sbin
cmd=${1:?usage: $0 start|stop|clean DIR}; D=$(realpath -m "${2:-/tmp/slurm-local}")
PORT=${SLURM_LOCAL_PORT:-16817}; GPUS=${SLURM_LOCAL_GPUS:-0}; CG=${SLURM_LOCAL_CGROUP:-0}; export SLURM_CONF=$D/etc/slurm.conf
alive() { local p; p=$(cat "$1" 2>/dev/null) && [ -n "$p" ] && ! grep -qs '^[0-9]* ([^)]*) Z' "/proc/$p/stat" && [ -e "/proc/$p" ]; }
waitfor() { local n=$(($1 * 10)); shift; until eval "$*"; do ((n--)) || return 1; sleep 0.1; done; }
start() { local name=$1; shift; alive "$D/run/$name.pid" && return 0   # run a daemon in the foreground, in background
  (cd "$D" && exec "$@" </dev/null >>"$D/log/$name.out" 2>&1) & echo $! >"$D/run/$name.pid"; }
stopd() { local f=$D/run/$1.pid   # wait 5 s, then SIGTERM, 10 s more, then SIGKILL
  waitfor 5 '! alive $f' || { kill "$(cat "$f")"; waitfor 10 '! alive $f' || kill -9 "$(cat "$f")"; } 2>/dev/null || true; }
case $cmd in
start)
  mkdir -p "$D"/{etc,state,spool,log,run,munge,dev,jobs}; chmod 755 "$D" "$D/run"; chmod 700 "$D/munge"
  [ -s "$D/munge/munge.key" ] || mungekey --create --keyfile="$D/munge/munge.key"
  alive "$D/run/munged.pid" || munged --key-file="$D/munge/munge.key" --socket="$D/run/munge.sock" \
    --pid-file="$D/run/munged.pid" --log-file="$D/log/munged.log" --seed-file="$D/munge/munged.seed"
  hw=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')        # CPUs=.. Boards=.. ... RealMemory=..
  [ -n "${SLURM_LOCAL_CPUS:-}" ] && hw="CPUs=$SLURM_LOCAL_CPUS $(grep -o 'RealMemory=[0-9]*' <<<"$hw")"
  : >"$D/etc/gres.conf"; gres=
  for ((i = 0; i < GPUS; i++)); do    # file-less gpu GRES is dropped by 22.05 -> fake char devices (major 240)
    [ -c "$D/dev/gpu$i" ] || mknod -m 666 "$D/dev/gpu$i" c 240 "$i"
    echo "NodeName=localhost Name=gpu File=$D/dev/gpu$i" >>"$D/etc/gres.conf"; gres="Gres=gpu:$GPUS"
  done
  if [ "$CG" = 1 ]; then pt=proctrack/cgroup tp=task/cgroup,task/affinity; else pt=proctrack/linuxproc tp=task/none; fi
  printf 'CgroupPlugin=autodetect\nConstrainCores=yes\nConstrainRAMSpace=yes\nConstrainDevices=yes\n' >"$D/etc/cgroup.conf"
  cat >"$SLURM_CONF" <<EOF
ClusterName=localtest
SlurmctldHost=localhost
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/run/munge.sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
MailProg=/bin/true
ProctrackType=$pt
TaskPlugin=$tp
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
SlurmdParameters=config_overrides
EnforcePartLimits=ALL
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$D/log/jobcomp.txt
MinJobAge=600
SchedulerParameters=batch_sched_delay=0
KillWait=2
GresTypes=gpu
NodeName=localhost NodeAddr=127.0.0.1 $hw $gres State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  if [ "${SLURM_LOCAL_REST:-0}" = 1 ]; then
    [ -s "$D/etc/jwt.key" ] || { head -c 32 /dev/urandom >"$D/etc/jwt.key"; chmod 600 "$D/etc/jwt.key"; }
    printf 'AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s\n' "$D/etc/jwt.key" >>"$SLURM_CONF"
  fi
  start slurmctld slurmctld -D -i
  start slurmd slurmd -D -N localhost
  waitfor 30 '[ "$(sinfo -h -o %T 2>/dev/null)" = idle ]' || { echo "not ready; see $D/log" >&2; exit 1; }
  if [ "${SLURM_LOCAL_REST:-0}" = 1 ]; then   # slurmrestd refuses root; v0.0.38 only (dbv0.0.38 needs slurmdbd)
    start slurmrestd env SLURM_JWT=daemon setpriv --reuid=nobody --regid=nogroup --clear-groups \
      slurmrestd -s v0.0.38 -a rest_auth/jwt "127.0.0.1:$((PORT + 2))"
    waitfor 10 "(exec 3<>/dev/tcp/127.0.0.1/$((PORT + 2))) 2>/dev/null" || { echo "slurmrestd not up" >&2; exit 1; }
  fi
  echo "export SLURM_CONF=$SLURM_CONF" ;;
stop | clean)
  if alive "$D/run/slurmctld.pid"; then
    squeue -h -o %A | xargs -r scancel 2>/dev/null || true
    waitfor 20 '[ -z "$(squeue -h -t PD,R,CG,S -o %A)" ]' || echo "jobs still active" >&2
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  alive "$D/run/slurmrestd.pid" && kill "$(cat "$D/run/slurmrestd.pid")"
  for p in slurmctld slurmd slurmrestd; do stopd $p; done
  me=$(awk '{print $6}' /proc/$$/stat)   # orphaned slurmstepd survive 'scontrol shutdown': kill each one's session
  for p in $(pgrep -x slurmstepd || true); do   # ours = has our slurmd.log open
    readlink /proc/"$p"/fd/* 2>/dev/null | grep -qxF "$D/log/slurmd.log" || continue
    sid=$(awk '{print $6}' "/proc/$p/stat") && [ "$sid" -gt 1 ] && [ "$sid" != "$me" ] && pkill -9 -s "$sid" || true
  done
  alive "$D/run/munged.pid" && kill "$(cat "$D/run/munged.pid")"; stopd munged
  for c in /sys/fs/cgroup/*/slurm_localhost; do [ -d "$c" ] && { find "$c" -depth -type d -exec rmdir {} + 2>/dev/null || true; }; done
  [ "$cmd" = clean ] && rm -rf "$D"; true ;;
*) echo "usage: $0 start|stop|clean DIR" >&2; exit 2 ;;
esac
