#!/usr/bin/env bash
# Local servers for Vigil, without Docker: Kafka (KRaft), a schema registry with
# the Confluent REST API (Apicurio), Elasticsearch and the machine's PostgreSQL.
#
#   servers.sh start  [kafka|registry|elasticsearch|postgres ...]   (default: all)
#   servers.sh stop   [names...]     (default: all but postgres, which is never stopped)
#   servers.sh status
#   servers.sh env                   (the connection env lines only)
#   servers.sh reset  [names...]     (stop and delete the data, keep the downloads)
#
# Downloads are resolved by Maven coordinates (Maven Central) once into
# $VIGIL_CACHE_DIR; data, pidfiles and logs live in $VIGIL_RUN_DIR.
# Environment knobs: VIGIL_{KAFKA,KAFKA_CONTROLLER,REGISTRY,ES,ES_TRANSPORT,PG}_PORT,
# VIGIL_{KAFKA,REGISTRY,ES}_HEAP, VIGIL_PG_DATABASE, VIGIL_HEALTH_TIMEOUT (s, per
# server), VIGIL_STOP_TIMEOUT (s), VIGIL_STARTED_FILE, VIGIL_STOP_ONLY_STARTED=1,
# VIGIL_JAVA_HOME, VIGIL_ES_USER (used when running as root).
# A second, private set of servers (fault tests stop and start their own): other ports,
# VIGIL_RUN_DIR elsewhere, and VIGIL_PG_OWN_CLUSTER=1 for a PostgreSQL cluster of its own in
# $VIGIL_RUN_DIR/postgres (initdb/pg_ctl of the machine's PostgreSQL, as user postgres when
# root), which `stop postgres` then stops too.
set -euo pipefail
# The servers' folders are shared with the user PostgreSQL runs as: a caller's stricter umask (a
# test process that made an embedded data folder private) must not make them root-only.
umask 022

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

KAFKA_VERSION=3.9.1
REGISTRY_VERSION=2.6.13.Final
ES_VERSION=8.19.4
# Pinned so `dependency:copy` works without a project and behaves the same everywhere.
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.6.1
REGISTRY_ARTIFACT=io.apicurio:apicurio-registry-app:${REGISTRY_VERSION}:tar.gz:all
ES_ARTIFACT=org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip

KAFKA_PORT=${VIGIL_KAFKA_PORT:-9092}
KAFKA_CONTROLLER_PORT=${VIGIL_KAFKA_CONTROLLER_PORT:-9093}
REGISTRY_PORT=${VIGIL_REGISTRY_PORT:-8081}
ES_PORT=${VIGIL_ES_PORT:-9200}
# A range: Elasticsearch takes the first free port in it.
ES_TRANSPORT_PORT=${VIGIL_ES_TRANSPORT_PORT:-9300-9399}
PG_PORT=${VIGIL_PG_PORT:-5432}
PG_DATABASE=${VIGIL_PG_DATABASE:-vigil}
PG_USER=postgres
PG_OWN_CLUSTER=${VIGIL_PG_OWN_CLUSTER:-0}

KAFKA_HEAP=${VIGIL_KAFKA_HEAP:--Xms256m -Xmx512m}
REGISTRY_HEAP=${VIGIL_REGISTRY_HEAP:--Xmx384m}
ES_HEAP=${VIGIL_ES_HEAP:--Xms512m -Xmx1g}
HEALTH_TIMEOUT=${VIGIL_HEALTH_TIMEOUT:-180}
STOP_TIMEOUT=${VIGIL_STOP_TIMEOUT:-30}
ES_USER=${VIGIL_ES_USER:-vigil-es}

CACHE_DIR=${VIGIL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vigil}
if [[ $EUID -eq 0 ]]; then
  RUN_DIR=${VIGIL_RUN_DIR:-/var/lib/vigil}
else
  RUN_DIR=${VIGIL_RUN_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/vigil}
fi
DOWNLOAD_DIR=$CACHE_DIR/downloads
LOG_DIR=$RUN_DIR/logs
PID_DIR=$RUN_DIR/pids

KAFKA_HOME=$CACHE_DIR/kafka-$KAFKA_VERSION
REGISTRY_HOME=$CACHE_DIR/apicurio-registry-$REGISTRY_VERSION
# Elasticsearch refuses to run as root, so as root it runs as $ES_USER, which
# cannot enter root's private ~/.cache: the unpacked home then lives in RUN_DIR.
if [[ $EUID -eq 0 ]]; then
  ES_HOME=$RUN_DIR/dist/elasticsearch-$ES_VERSION
else
  ES_HOME=$CACHE_DIR/elasticsearch-$ES_VERSION
fi
ES_BASE=$RUN_DIR/elasticsearch   # config/, data/, logs/, tmp/

ALL_SERVERS=(kafka registry elasticsearch postgres)
JAVA_SERVERS=(kafka registry elasticsearch)

# Per-run bookkeeping for the summary.
declare -A OUTCOME=() LAUNCHED_AT=() STARTUP_SECS=() SERVER_PID=()

log() { printf '[servers] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

java_home() {
  if [[ -n ${VIGIL_JAVA_HOME:-} ]]; then
    printf '%s\n' "$VIGIL_JAVA_HOME"
  elif [[ -n ${JAVA_HOME:-} && -x ${JAVA_HOME}/bin/java ]]; then
    printf '%s\n' "$JAVA_HOME"
  else
    local java
    java=$(command -v java) || die "java not found (Java 17+ is needed)"
    dirname "$(dirname "$(readlink -f "$java")")"
  fi
}

now() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# ---------------------------------------------------------------- processes

pidfile() { printf '%s/%s.pid\n' "$PID_DIR" "$1"; }

# A string that must appear in the command line of the server's leader process,
# so a recycled pid is never mistaken for ours.
cmd_marker() {
  case $1 in
    kafka) echo kafka.Kafka ;;
    registry) echo apicurio-registry-app ;;
    elasticsearch) echo org.elasticsearch ;;
  esac
}

# Prints the pid from the server's pidfile if that process is alive and ours.
managed_pid() {
  local f pid
  f=$(pidfile "$1")
  [[ -s $f ]] || return 1
  pid=$(<"$f")
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$(cmd_marker "$1")" || return 1
  echo "$pid"
}

# Pid of whatever listens on a local TCP port (empty if unknown).
listener_pid() {
  ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 || true
}

port_in_use() { [[ -n $(ss -Hltn "sport = :$1" 2>/dev/null) ]]; }

# Resident memory (MB) of a process and all its descendants (VmRSS, via ps).
rss_mb() {
  [[ -n ${1:-} ]] || { echo "?"; return; }
  ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
    { parent[$1] = $2; rss[$1] = $3 }
    END {
      for (p in parent) {
        q = p
        while (q != "" && q != 0 && q != root) q = parent[q]
        if (q == root) total += rss[p]
      }
      printf "%d", total / 1024
    }'
}

# Starts "$@" in its own session (so it survives the calling shell and can be
# stopped as one process group) with output appended to the server's log.
spawn() {
  local name=$1 workdir=$2
  shift 2
  local logf=$LOG_DIR/$name.log
  printf '\n===== %s: starting %s =====\n' "$(date -Is)" "$name" >>"$logf"
  # The subshell is not a process group leader, so setsid does not fork and $!
  # ends up being the server's own pid. fd 9 (our lock) must not leak into it.
  (cd "$workdir" && exec nohup setsid "$@" >>"$logf" 2>&1 </dev/null 9>&-) &
  echo "$!" >"$(pidfile "$name")"
  SERVER_PID[$name]=$!
}

# SIGTERM to the whole process group, SIGKILL after STOP_TIMEOUT seconds.
stop_server() {
  local name=$1 pid waited=0
  if ! pid=$(managed_pid "$name"); then
    rm -f "$(pidfile "$name")"
    if port_in_use "$(server_port "$name")"; then
      log "$name: not started by this script (no pidfile), leaving the process on port $(server_port "$name") alone"
    else
      log "$name: not running"
    fi
    return 0
  fi
  log "$name: stopping (pid $pid)"
  # The leader first: Elasticsearch's launcher then shuts its server JVM down
  # in order. Whatever is left of the process group once the leader is gone
  # gets SIGTERM too, and everything SIGKILL at the deadline.
  kill -TERM "$pid" 2>/dev/null || true
  local group_termed=0
  while pgrep -g "$pid" >/dev/null 2>&1 || kill -0 "$pid" 2>/dev/null; do
    if ((group_termed == 0)) && ! kill -0 "$pid" 2>/dev/null; then
      kill -TERM -- "-$pid" 2>/dev/null || true
      group_termed=1
    fi
    if ((waited >= STOP_TIMEOUT * 2)); then
      log "$name: still running after ${STOP_TIMEOUT}s, sending SIGKILL"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.5
    waited=$((waited + 1))
  done
  rm -f "$(pidfile "$name")"
  log "$name: stopped"
}

# ---------------------------------------------------------------- health

server_port() {
  case $1 in
    kafka) echo "$KAFKA_PORT" ;;
    registry) echo "$REGISTRY_PORT" ;;
    elasticsearch) echo "$ES_PORT" ;;
    postgres) echo "$PG_PORT" ;;
  esac
}

server_url() {
  case $1 in
    kafka) echo "127.0.0.1:$KAFKA_PORT" ;;
    registry) echo "http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7" ;;
    elasticsearch) echo "http://127.0.0.1:$ES_PORT" ;;
    postgres) echo "postgres://$PG_USER@127.0.0.1:$PG_PORT/$PG_DATABASE" ;;
  esac
}

# Kafka answers an ApiVersions request (v0) with error code 0. The broker only
# enables request processing once it has caught up with the metadata log, so
# this means "ready", not just "port open". Plain bash: no Kafka CLI needed.
kafka_healthy() {
  local hex
  # shellcheck disable=SC2016  # $1 is expanded by the inner bash
  hex=$(timeout 3 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    # size=15 | api_key=18 (ApiVersions) | api_version=0 | correlation_id=7 | client_id="vigil"
    printf "\x00\x00\x00\x0f\x00\x12\x00\x00\x00\x00\x00\x07\x00\x05vigil" >&3
    head -c 10 <&3 | od -An -tx1' _ "$KAFKA_PORT" 2>/dev/null) || return 1
  hex=${hex//[[:space:]]/}
  # size(4 bytes, any) | correlation_id=7 | error_code=0
  [[ $hex == ????????000000070000 ]]
}

registry_healthy() {
  curl -fsS -o /dev/null --max-time 3 "http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7/subjects" 2>/dev/null
}

es_healthy() {
  local body
  body=$(curl -fsS --max-time 5 \
    "http://127.0.0.1:$ES_PORT/_cluster/health?wait_for_status=yellow&timeout=1s" 2>/dev/null) || return 1
  [[ $body =~ \"status\":\"(green|yellow)\" ]]
}

pg_healthy() { pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -t 3; }

healthy() {
  case $1 in
    kafka) kafka_healthy ;;
    registry) registry_healthy ;;
    elasticsearch) es_healthy ;;
    postgres) pg_healthy ;;
  esac
}

# ---------------------------------------------------------------- downloads

mvn_get() {
  # -B: no progress bars; fd 9 (our lock) is not for Maven.
  mvn -B -q -Dstyle.color=never "$@" 9>&- || die "Maven could not resolve: $*"
}

download_kafka() {
  [[ -f $KAFKA_HOME/.complete ]] && return 0
  log "kafka: resolving Kafka $KAFKA_VERSION jars with Maven into $KAFKA_HOME"
  rm -rf "$KAFKA_HOME.tmp"
  mvn_get -f "$SCRIPT_DIR/kafka/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$KAFKA_HOME.tmp/libs" -DincludeScope=runtime
  [[ -n $(compgen -G "$KAFKA_HOME.tmp/libs/kafka_2.13-*.jar") ]] || die "kafka: jars missing after Maven"
  rm -rf "$KAFKA_HOME"
  mv "$KAFKA_HOME.tmp" "$KAFKA_HOME"
  touch "$KAFKA_HOME/.complete"
}

# Copies an artifact (by coordinates) from Maven into DOWNLOAD_DIR, once.
fetch_artifact() {
  local coords=$1 file=$2
  [[ -s $DOWNLOAD_DIR/$file ]] && return 0
  log "downloading $coords with Maven"
  mvn_get "$DEP_PLUGIN:copy" -Dartifact="$coords" -DoutputDirectory="$DOWNLOAD_DIR.tmp"
  mkdir -p "$DOWNLOAD_DIR"
  mv "$DOWNLOAD_DIR.tmp/$file" "$DOWNLOAD_DIR/$file"
}

download_registry() {
  [[ -f $REGISTRY_HOME/.complete ]] && return 0
  local tgz=apicurio-registry-app-$REGISTRY_VERSION-all.tar.gz
  fetch_artifact "$REGISTRY_ARTIFACT" "$tgz"
  rm -rf "$REGISTRY_HOME.tmp"
  mkdir -p "$REGISTRY_HOME.tmp"
  tar -xzf "$DOWNLOAD_DIR/$tgz" -C "$REGISTRY_HOME.tmp"
  rm -rf "$REGISTRY_HOME"
  mv "$REGISTRY_HOME.tmp" "$REGISTRY_HOME"
  touch "$REGISTRY_HOME/.complete"
}

download_elasticsearch() {
  [[ -f $ES_HOME/.complete ]] && return 0
  local zip=elasticsearch-$ES_VERSION.zip
  fetch_artifact "$ES_ARTIFACT" "$zip"
  log "elasticsearch: unpacking into $ES_HOME"
  rm -rf "$ES_HOME.tmp"
  mkdir -p "$ES_HOME.tmp"
  unzip -q "$DOWNLOAD_DIR/$zip" -d "$ES_HOME.tmp"
  rm -rf "$ES_HOME"
  mv "$ES_HOME.tmp/elasticsearch-$ES_VERSION" "$ES_HOME"
  rmdir "$ES_HOME.tmp"
  chmod -R a+rX "$ES_HOME"   # readable by $ES_USER when we are root
  touch "$ES_HOME/.complete"
}

# ---------------------------------------------------------------- launchers

launch_kafka() {
  local java dir=$RUN_DIR/kafka
  java=$(java_home)/bin/java
  mkdir -p "$dir/data"
  # Regenerated on every start so port changes apply; the data stays.
  cat >"$dir/server.properties" <<EOF
# Generated by deploy/local/servers.sh - edits are overwritten on start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
auto.create.topics.enable=false
delete.topic.enable=true
# Single node: internal topics cannot be replicated, and fewer partitions start faster.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
group.initial.rebalance.delay.ms=0
# Dev-sized logs: small segments, one day / 256 MiB per partition.
log.segment.bytes=16777216
log.retention.hours=24
log.retention.bytes=268435456
log.retention.check.interval.ms=60000
# The default 128 MiB compaction buffer would take a quarter of the heap.
log.cleaner.dedupe.buffer.size=16777216
EOF
  local jvm=(-Djava.awt.headless=true "-Dlog4j.configuration=file:$SCRIPT_DIR/kafka/log4j.properties"
    "-Dkafka.logs.dir=$LOG_DIR" -cp "$KAFKA_HOME/libs/*")
  # The cluster id is kept so a restart reuses the formatted storage.
  if [[ ! -s $dir/cluster-id ]]; then
    "$java" -Xmx128m "${jvm[@]}" kafka.tools.StorageTool random-uuid 2>>"$LOG_DIR/kafka.log" |
      tail -1 >"$dir/cluster-id.tmp"
    mv "$dir/cluster-id.tmp" "$dir/cluster-id"
  fi
  if [[ ! -f $dir/data/meta.properties ]]; then
    "$java" -Xmx128m "${jvm[@]}" kafka.tools.StorageTool format --ignore-formatted \
      -t "$(<"$dir/cluster-id")" -c "$dir/server.properties" >>"$LOG_DIR/kafka.log" 2>&1 ||
      die "kafka: formatting the storage failed, see $LOG_DIR/kafka.log"
  fi
  # shellcheck disable=SC2086  # KAFKA_HEAP holds several JVM flags
  spawn kafka "$dir" "$java" $KAFKA_HEAP -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 "${jvm[@]}" kafka.Kafka "$dir/server.properties"
}

launch_registry() {
  local java dir=$RUN_DIR/registry jar
  java=$(java_home)/bin/java
  mkdir -p "$dir"
  jar=$(compgen -G "$REGISTRY_HOME/apicurio-registry-app-*-runner.jar" | head -1) ||
    die "registry: runner jar not found in $REGISTRY_HOME"
  # The `app` artifact keeps everything in memory: a restart starts empty.
  # shellcheck disable=SC2086  # REGISTRY_HEAP holds several JVM flags
  spawn registry "$dir" "$java" $REGISTRY_HEAP \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$REGISTRY_PORT" \
    -jar "$jar"
}

launch_elasticsearch() {
  local conf=$ES_BASE/config
  mkdir -p "$conf" "$ES_BASE/data" "$ES_BASE/logs" "$ES_BASE/tmp"
  cat >"$conf/elasticsearch.yml" <<EOF
# Generated by deploy/local/servers.sh - edits are overwritten on start.
cluster.name: vigil-local
node.name: vigil-local-1
path.data: $ES_BASE/data
path.logs: $ES_BASE/logs
network.host: 127.0.0.1
http.port: $ES_PORT
transport.port: $ES_TRANSPORT_PORT
discovery.type: single-node
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
# The integ-test distribution ships x-pack-security, which is on by default in 8.x
# and would answer 401 to everything (no users are set up): plain HTTP for dev.
xpack.security.enabled: false
EOF
  cat >"$conf/jvm.options" <<EOF
# Generated by deploy/local/servers.sh. Heap comes from ES_JAVA_OPTS.
-XX:+UseG1GC
# ES pre-touches the whole initial heap by default; a dev node need not hold it all.
-XX:-AlwaysPreTouch
-Djava.io.tmpdir=\${ES_TMPDIR}
20-:--add-modules=jdk.incubator.vector
-XX:+ExitOnOutOfMemoryError
-XX:ErrorFile=$ES_BASE/logs/hs_err_pid%p.log
EOF
  cp "$ES_HOME/config/log4j2.properties" "$conf/log4j2.properties"

  local -a as_user=()
  if [[ $EUID -eq 0 ]]; then
    if ! id -u "$ES_USER" >/dev/null 2>&1; then
      log "elasticsearch: creating system user $ES_USER (Elasticsearch refuses to run as root)"
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
        --user-group "$ES_USER"
    fi
    chmod 755 "$RUN_DIR"
    chown -R "$ES_USER:$ES_USER" "$ES_BASE"
    # setpriv execs (runuser would stay around as a parent).
    as_user=(setpriv "--reuid=$ES_USER" "--regid=$ES_USER" --init-groups)
  fi
  local max_map
  max_map=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
  if ((max_map < 262144)); then
    log "elasticsearch: vm.max_map_count=$max_map (< 262144); fine for a loopback dev node," \
      "raise it with 'sysctl -w vm.max_map_count=262144' if shards fail to open"
  fi
  spawn elasticsearch "$ES_BASE" "${as_user[@]}" env -u JAVA_HOME \
    ES_JAVA_HOME="$(java_home)" ES_PATH_CONF="$conf" ES_TMPDIR="$ES_BASE/tmp" \
    ES_JAVA_OPTS="$ES_HEAP" HOME="$ES_BASE" "$ES_HOME/bin/elasticsearch"
}

pg_bin() {
  local dir
  dir=$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1)
  [[ -x $dir/$1 ]] || die "postgres: $1 not found under /usr/lib/postgresql/*/bin"
  echo "$dir/$1"
}

# Runs a PostgreSQL tool as the cluster's owner (PostgreSQL refuses to run as root).
as_pg_owner() {
  if [[ $EUID -eq 0 ]]; then
    setpriv --reuid=postgres --regid=postgres --init-groups "$@"
  else
    "$@"
  fi
}

start_own_postgres() {
  local dir=$RUN_DIR/postgres
  mkdir -p "$dir"
  [[ $EUID -eq 0 ]] && chown postgres: "$dir" && chmod 755 "$RUN_DIR"
  if [[ ! -s $dir/data/PG_VERSION ]]; then
    log "postgres: initdb in $dir/data"
    as_pg_owner "$(pg_bin initdb)" -D "$dir/data" -U "$PG_USER" --auth=trust -E UTF8 \
      >>"$LOG_DIR/postgres.log" 2>&1 9>&- || die "postgres: initdb failed, see $LOG_DIR/postgres.log"
  fi
  [[ $EUID -eq 0 ]] && chown postgres: "$LOG_DIR/postgres.log"
  as_pg_owner "$(pg_bin pg_ctl)" -D "$dir/data" -l "$LOG_DIR/postgres.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $dir -c max_connections=200" start \
    >/dev/null 9>&- || die "postgres: pg_ctl start failed, see $LOG_DIR/postgres.log"
}

stop_own_postgres() {
  local data=$RUN_DIR/postgres/data
  if [[ -s $data/postmaster.pid ]]; then
    log "postgres: stopping the cluster in $data"
    as_pg_owner "$(pg_bin pg_ctl)" -D "$data" -m fast -w -t "$STOP_TIMEOUT" stop >/dev/null 9>&- || true
  else
    log "postgres: not running"
  fi
}

start_postgres() {
  local t0
  t0=$(now)
  if pg_healthy; then
    OUTCOME[postgres]=reused
  elif [[ $PG_OWN_CLUSTER == 1 ]]; then
    start_own_postgres
    OUTCOME[postgres]=started
    record_started postgres
    STARTUP_SECS[postgres]=$(elapsed_since "$t0")
  else
    local cluster
    if [[ $EUID -eq 0 ]] && command -v pg_ctlcluster >/dev/null; then
      cluster=$(pg_lsclusters -h 2>/dev/null | awk -v p="$PG_PORT" '$3 == p { print $1, $2; exit }')
      [[ -n $cluster ]] || die "postgres: nothing answers on 127.0.0.1:$PG_PORT and no local cluster uses that port"
      log "postgres: starting cluster $cluster"
      # shellcheck disable=SC2086  # "<version> <name>"
      pg_ctlcluster --skip-systemctl-redirect $cluster start 9>&- || die "postgres: pg_ctlcluster failed"
      local i
      for ((i = 0; i < 30; i++)); do pg_healthy && break; sleep 1; done
      pg_healthy || die "postgres: not answering on 127.0.0.1:$PG_PORT after starting $cluster"
      OUTCOME[postgres]=started
      record_started postgres
      STARTUP_SECS[postgres]=$(elapsed_since "$t0")
    else
      die "postgres: nothing answers on 127.0.0.1:$PG_PORT (start the machine's PostgreSQL first)"
    fi
  fi
  SERVER_PID[postgres]=$(listener_pid "$PG_PORT")
  local psql=(psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -v ON_ERROR_STOP=1)
  if [[ -z $("${psql[@]}" -tAc "select 1 from pg_database where datname = '$PG_DATABASE'") ]]; then
    log "postgres: creating database $PG_DATABASE"
    "${psql[@]}" -c "create database \"$PG_DATABASE\""
  fi
}

# ---------------------------------------------------------------- commands

# Appends a server this run started to $VIGIL_STARTED_FILE (if set), for
# `VIGIL_STOP_ONLY_STARTED=1 servers.sh stop`.
record_started() {
  if [[ -n ${VIGIL_STARTED_FILE:-} ]]; then
    echo "$1" >>"$VIGIL_STARTED_FILE"
  fi
}

normalize_names() {
  local n
  for n in "$@"; do
    case $n in
      kafka) echo kafka ;;
      registry | schema-registry | apicurio) echo registry ;;
      elasticsearch | es) echo elasticsearch ;;
      postgres | postgresql | pg) echo postgres ;;
      *) die "unknown server '$n' (expected: ${ALL_SERVERS[*]})" ;;
    esac
  done
}

take_lock() {
  mkdir -p "$RUN_DIR" "$LOG_DIR" "$PID_DIR"
  exec 9>"$RUN_DIR/.lock"
  flock -w 900 9 || die "another servers.sh is still busy (lock $RUN_DIR/.lock)"
}

print_env() {
  echo "KAFKA_BROKERS=$(server_url kafka)"
  echo "SCHEMA_REGISTRY_URL=$(server_url registry)"
  echo "ELASTICSEARCH_URL=$(server_url elasticsearch)"
  echo "DATABASE_URL=$(server_url postgres)"
}

tail_log() {
  log "$1: last 40 lines of $LOG_DIR/$1.log:"
  tail -n 40 "$LOG_DIR/$1.log" >&2 2>/dev/null || true
}

cmd_start() {
  local -a names pending=() failed=() to_launch=()
  mapfile -t names < <(normalize_names "${@:-${ALL_SERVERS[@]}}")
  take_lock
  mkdir -p "$CACHE_DIR"

  local n pid
  for n in "${names[@]}"; do
    if [[ $n == postgres ]]; then
      start_postgres
      continue
    fi
    if pid=$(managed_pid "$n"); then
      SERVER_PID[$n]=$pid
      if healthy "$n"; then
        OUTCOME[$n]=reused
      else
        # Ours but not (yet) healthy: wait for it like for a fresh start.
        OUTCOME[$n]=reused
        LAUNCHED_AT[$n]=$(now)
        pending+=("$n")
      fi
      continue
    fi
    rm -f "$(pidfile "$n")"
    if healthy "$n"; then
      # Someone else runs it on our port (another checkout, a manual start).
      OUTCOME[$n]=reused
      SERVER_PID[$n]=$(listener_pid "$(server_port "$n")")
      continue
    fi
    port_in_use "$(server_port "$n")" &&
      die "$n: port $(server_port "$n") is in use by something that is not a healthy $n"
    [[ $n == kafka ]] && port_in_use "$KAFKA_CONTROLLER_PORT" &&
      die "kafka: controller port $KAFKA_CONTROLLER_PORT is in use"
    to_launch+=("$n")
  done

  # Download everything first, then launch together: the servers start in
  # parallel and the measured start-up times are not inflated by downloads.
  for n in "${to_launch[@]+"${to_launch[@]}"}"; do
    "download_$n"
  done
  for n in "${to_launch[@]+"${to_launch[@]}"}"; do
    OUTCOME[$n]=started
    LAUNCHED_AT[$n]=$(now)
    "launch_$n"
    # Recorded at once, so a caller interrupted while we wait still stops it.
    record_started "$n"
    log "$n: launched (pid ${SERVER_PID[$n]}), waiting for it to be healthy"
    pending+=("$n")
  done

  # Wait for all launched servers together; they start in parallel.
  local -a still
  while ((${#pending[@]} > 0)); do
    still=()
    for n in "${pending[@]}"; do
      if healthy "$n"; then
        STARTUP_SECS[$n]=$(elapsed_since "${LAUNCHED_AT[$n]}")
        log "$n: healthy after ${STARTUP_SECS[$n]} s"
      elif ! kill -0 "${SERVER_PID[$n]}" 2>/dev/null; then
        log "$n: the process exited during start-up"
        tail_log "$n"
        rm -f "$(pidfile "$n")"
        failed+=("$n")
      elif awk -v e="$(elapsed_since "${LAUNCHED_AT[$n]}")" -v t="$HEALTH_TIMEOUT" 'BEGIN { exit !(e > t) }'; then
        log "$n: not healthy after ${HEALTH_TIMEOUT}s, stopping it"
        tail_log "$n"
        stop_server "$n"
        failed+=("$n")
      else
        still+=("$n")
      fi
    done
    pending=("${still[@]+"${still[@]}"}")
    ((${#pending[@]} > 0)) && sleep 1
  done

  for n in "${names[@]}"; do
    [[ " ${failed[*]-} " == *" $n "* ]] && continue
    printf '%-14s %-8s %6s s  RSS %5s MB  %s\n' "$n" "${OUTCOME[$n]}" \
      "${STARTUP_SECS[$n]:--}" "$(rss_mb "${SERVER_PID[$n]:-}")" "$(server_url "$n")"
  done
  echo
  print_env
  if ((${#failed[@]} > 0)); then
    die "failed to start: ${failed[*]}"
  fi
}

cmd_stop() {
  local -a names
  if (($# > 0)); then
    mapfile -t names < <(normalize_names "$@")
  else
    names=("${JAVA_SERVERS[@]}")
  fi
  take_lock
  if [[ ${VIGIL_STOP_ONLY_STARTED:-} == 1 ]]; then
    local -a listed=() keep=()
    [[ -n ${VIGIL_STARTED_FILE:-} && -f ${VIGIL_STARTED_FILE:-} ]] && mapfile -t listed <"$VIGIL_STARTED_FILE"
    local n
    for n in "${names[@]}"; do
      if [[ " ${listed[*]-} " == *" $n "* ]]; then keep+=("$n"); fi
    done
    names=("${keep[@]+"${keep[@]}"}")
    if [[ -n ${VIGIL_STARTED_FILE:-} && -f $VIGIL_STARTED_FILE ]]; then
      # Forget what we are about to stop.
      local rest
      rest=$(grep -vxF -f <(printf '%s\n' "${names[@]+"${names[@]}"}" "") "$VIGIL_STARTED_FILE" || true)
      printf '%s' "${rest:+$rest$'\n'}" >"$VIGIL_STARTED_FILE"
    fi
    ((${#names[@]} > 0)) || { log "nothing to stop (none listed in ${VIGIL_STARTED_FILE:-VIGIL_STARTED_FILE})"; return 0; }
  fi
  local n
  for n in "${names[@]}"; do
    if [[ $n == postgres ]]; then
      if [[ $PG_OWN_CLUSTER == 1 ]]; then
        stop_own_postgres
      else
        log "postgres: the machine's server, left running"
      fi
      continue
    fi
    stop_server "$n" &   # in parallel: each may take seconds to shut down cleanly
  done
  wait
}

cmd_status() {
  mkdir -p "$PID_DIR"
  local n pid state
  for n in "${ALL_SERVERS[@]}"; do
    pid=""
    if [[ $n != postgres ]] && pid=$(managed_pid "$n"); then
      if healthy "$n"; then state="running, healthy"; else state="running, NOT healthy"; fi
    elif healthy "$n"; then
      pid=$(listener_pid "$(server_port "$n")")
      if [[ $n == postgres ]]; then state="running, healthy"; else state="running, healthy (not ours)"; fi
    else
      state=stopped
    fi
    if [[ $state == stopped ]]; then
      printf '%-14s %-28s %s\n' "$n" "$state" "$(server_url "$n")"
    else
      printf '%-14s %-28s pid %-8s RSS %5s MB  %s\n' "$n" "$state" "${pid:-?}" "$(rss_mb "$pid")" "$(server_url "$n")"
    fi
  done
}

cmd_reset() {
  local -a names
  if (($# > 0)); then
    mapfile -t names < <(normalize_names "$@")
  else
    names=("${JAVA_SERVERS[@]}")
  fi
  cmd_stop "${names[@]}"
  local n
  for n in "${names[@]}"; do
    case $n in
      kafka) rm -rf "$RUN_DIR/kafka" ;;        # log dirs and the cluster id
      registry) rm -rf "$RUN_DIR/registry" ;;  # in-memory anyway
      elasticsearch) rm -rf "$ES_BASE/data" ;;
      postgres)
        pg_healthy || die "postgres: not running, cannot reset database $PG_DATABASE"
        psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -v ON_ERROR_STOP=1 \
          -c "drop database if exists \"$PG_DATABASE\" with (force)" \
          -c "create database \"$PG_DATABASE\""
        ;;
    esac
    log "$n: data reset"
  done
}

usage() {
  sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

main() {
  local cmd=${1:-}
  (($# > 0)) && shift
  case $cmd in
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    status) cmd_status ;;
    env) print_env ;;
    reset) cmd_reset "$@" ;;
    *) usage ;;
  esac
}

main "$@"
