#!/usr/bin/env bash
# Boots docker-compose.yml for real and checks it (deploy/README.md § Compose boot check):
# engine → stand-in base images where missing (deploy/base-images.sh) → the project image from
# the unchanged deploy/Dockerfile → `docker-compose up -d` on free ports → every healthcheck
# healthy → the walk through the gateway (deploy/compose-walk.mjs) → `docker inspect`
# assertions on the apps' containers → `down -v` → engine stopped, host networking restored.
# Every phase is timed. A failed boot prints the last log lines of the failing containers.
#
# Engine: one that already answers (DOCKER_HOST or the default socket) is used as it is;
# otherwise (root only) Debian's docker.io/docker-compose are installed when missing, and a
# private dockerd runs with its data under COMPOSE_CHECK_DIR (default /tmp/wp-compose-check;
# the data root is kept, so a second run reuses images and build cache), stopped by its PID at
# the end, after which the iptables/nftables rules, forwarding sysctls and network links it
# made are put back as they were.
# Environment: COMPOSE_CHECK_DIR, COMPOSE_CHECK_BUDGET (seconds for all phases, default 480),
# SUMMARY_FILE (gets "passed failed"). Exit: 0 all passed, 1 a check failed, 2 no engine.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
dir=${COMPOSE_CHECK_DIR:-/tmp/wp-compose-check}
budget=${COMPOSE_CHECK_BUDGET:-480}
project=wp-compose-check
apps=(auth org wallet analytics gateway)
passed=0
failed=0
own_engine=false
dockerd_pid=""
timings=()
deadline=$((SECONDS + budget))
export COMPOSE_HTTP_TIMEOUT=300 DOCKER_BUILDKIT=0

say() { echo "[compose-check] $*"; }
check() { # ok-command... ; description in $what
  if "$@"; then passed=$((passed + 1)); echo "ok     $what"; else failed=$((failed + 1)); echo "FAILED $what"; fi
}
phase_start=0
phase() { phase_start=$SECONDS; say "── $1"; current_phase=$1; }
phase_end() { timings+=("$(printf '%-28s %4d s' "$current_phase" $((SECONDS - phase_start)))"); }
left() { local n=$((deadline - SECONDS)); [ "$n" -gt 5 ] && echo "$n" || echo 5; }
compose() { docker-compose -p "$project" "$@"; }

# ── networking snapshot and restore (own engine only) ───────────────────────────────────────
snapshot_network() {
  mkdir -p "$dir/net"
  if iptables -V 2>/dev/null | grep -q nf_tables && command -v nft >/dev/null; then
    nft list ruleset > "$dir/net/ruleset.nft"
  else
    iptables-save > "$dir/net/iptables.v4" 2>/dev/null
    ip6tables-save > "$dir/net/iptables.v6" 2>/dev/null
  fi
  sysctl -n net.ipv4.ip_forward > "$dir/net/ip_forward"
  sysctl -n net.ipv6.conf.all.forwarding > "$dir/net/ip6_forward" 2>/dev/null || true
  ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort > "$dir/net/links"
}
restore_network() {
  if [ -f "$dir/net/ruleset.nft" ]; then
    nft flush ruleset && nft -f "$dir/net/ruleset.nft"
  else
    for family in 4 6; do
      local save=iptables-save restore=iptables-restore
      [ $family = 6 ] && save=ip6tables-save restore=ip6tables-restore
      # Tables docker loaded that were not there before are emptied (a restore flushes the
      # tables it names).
      { cat "$dir/net/iptables.v$family"
        for t in $($save | sed -n 's/^\*//p'); do
          grep -q "^\*$t$" "$dir/net/iptables.v$family" || printf '*%s\nCOMMIT\n' "$t"
        done; } | $restore
    done
  fi
  sysctl -qw net.ipv4.ip_forward="$(cat "$dir/net/ip_forward")"
  [ -s "$dir/net/ip6_forward" ] && sysctl -qw net.ipv6.conf.all.forwarding="$(cat "$dir/net/ip6_forward")"
  ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort > "$dir/net/links.after"
  for link in $(comm -13 "$dir/net/links" "$dir/net/links.after"); do
    case $link in docker0 | br-* | veth*) ip link delete "$link" 2>/dev/null ;; esac
  done
  ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort > "$dir/net/links.after"
  if [ -f "$dir/net/ruleset.nft" ]; then nft list ruleset > "$dir/net/ruleset.after.nft"; fi
  if cmp -s "$dir/net/links" "$dir/net/links.after" \
    && { [ ! -f "$dir/net/ruleset.nft" ] || cmp -s "$dir/net/ruleset.nft" "$dir/net/ruleset.after.nft"; }; then
    say "host networking restored (links, firewall rules, forwarding)"
  else
    say "WARNING: host networking differs from before the run (see $dir/net)"
  fi
}

# ── engine ───────────────────────────────────────────────────────────────────────────────────
start_engine() {
  if docker info >/dev/null 2>&1; then say "using the running engine (${DOCKER_HOST:-default socket})"; return 0; fi
  if [ "$(id -u)" != 0 ]; then say "no engine answers and starting one needs root"; return 1; fi
  if ! command -v dockerd >/dev/null || ! command -v docker-compose >/dev/null || ! command -v docker >/dev/null; then
    say "installing Debian's docker.io and docker-compose"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -q docker.io docker-compose || { apt-get update -q && apt-get install -y -q docker.io docker-compose; }; } >/dev/null 2>&1 \
      || { say "could not install docker.io/docker-compose"; return 1; }
  fi
  mkdir -p "$dir/data" "$dir/exec"
  if [ -s "$dir/dockerd.pid" ] && kill -0 "$(cat "$dir/dockerd.pid")" 2>/dev/null; then
    say "a dockerd of an earlier run is still up (PID $(cat "$dir/dockerd.pid")): stopping it"
    kill "$(cat "$dir/dockerd.pid")"; sleep 3
  fi
  snapshot_network
  own_engine=true
  export DOCKER_HOST="unix://$dir/docker.sock"
  dockerd --data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" \
    -H "$DOCKER_HOST" > "$dir/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && { say "dockerd $(docker version -f '{{.Server.Version}}') up, PID $dockerd_pid, data in $dir/data"; return 0; }
    kill -0 "$dockerd_pid" 2>/dev/null || break
    sleep 0.5
  done
  say "dockerd did not start:"; tail -n 20 "$dir/dockerd.log"
  return 1
}
stop_engine() {
  [ "$own_engine" = true ] || return 0
  if [ -n "$dockerd_pid" ] && kill -0 "$dockerd_pid" 2>/dev/null; then
    kill "$dockerd_pid"
    for _ in $(seq 1 60); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$dockerd_pid" 2>/dev/null && { say "dockerd ignores SIGTERM: killing PID $dockerd_pid"; kill -9 "$dockerd_pid"; }
  fi
  findmnt -rno TARGET | grep "^$dir/" | sort -r | xargs -r -n1 umount -l 2>/dev/null
  restore_network
}

# ── the checks ───────────────────────────────────────────────────────────────────────────────
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
container() { compose ps -q "$1" 2>/dev/null; }
health() { docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$1" 2>/dev/null; }
unhealthy_logs() {
  local id
  for service in $(compose config --services); do
    id=$(container "$service")
    if [ -z "$id" ] || [ "$(health "$id")" != healthy ]; then
      say "── $service: $( [ -n "$id" ] && docker inspect -f '{{.State.Status}}, health {{if .State.Health}}{{.State.Health.Status}}{{end}}' "$id" || echo 'no container'); last log lines:"
      [ -n "$id" ] && docker logs --tail 40 "$id" 2>&1 | sed 's/^/    /'
    fi
  done
}
all_healthy() {
  local id
  for service in $(compose config --services); do
    id=$(container "$service"); [ -n "$id" ] && [ "$(health "$id")" = healthy ] || return 1
  done
}
inspect_is() { # container go-template expected
  local got; got=$(docker inspect -f "$2" "$1" 2>&1)
  [ "$got" = "$3" ] || { echo "       got: $got"; return 1; }
}

only_built_output() { # the image ships no sources, tests, tsconfig or type declarations of its own
  local found
  found=$(docker run --rm --entrypoint sh workspace-platform:dev -c \
    "find apps libs \\( -name src -o -name test -o -name '*.d.ts' -o -name 'tsconfig*.json' \\) -print | head -n 5")
  [ -z "$found" ] || { echo "       found: $found"; return 1; }
}

boot_and_check() {
  phase "base images"
  timeout "$(left)" bash deploy/base-images.sh || { phase_end; return 1; }
  phase_end

  phase "project image"
  if ! timeout "$(left)" docker build -q -t workspace-platform:dev -f deploy/Dockerfile . > "$dir/build.log" 2>&1; then
    tail -n 40 "$dir/build.log"; phase_end; return 1
  fi
  say "workspace-platform:dev $(docker image inspect -f '{{.Size}}' workspace-platform:dev | awk '{printf "%.0f MB", $1/1e6}')"
  phase_end

  phase "compose up"
  GATEWAY_PORT=$(free_port); GATEWAY_METRICS_PORT=$(free_port); MAILPIT_PORT=$(free_port)
  export GATEWAY_PORT GATEWAY_METRICS_PORT MAILPIT_PORT
  say "gateway 127.0.0.1:$GATEWAY_PORT, metrics :$GATEWAY_METRICS_PORT, mail :$MAILPIT_PORT"
  compose down -v --remove-orphans >/dev/null 2>&1
  if ! timeout "$(left)" docker-compose -p "$project" up -d --no-build > "$dir/up.log" 2>&1; then
    tail -n 15 "$dir/up.log"; unhealthy_logs; phase_end; return 1
  fi
  phase_end

  phase "healthchecks"
  until all_healthy; do
    if [ "$SECONDS" -ge "$deadline" ]; then say "not every container became healthy in time"; unhealthy_logs; phase_end; return 1; fi
    sleep 2
  done
  say "every container healthy: $(compose config --services | tr '\n' ' ')"
  phase_end

  phase "walk through the gateway"
  local walk_summary="$dir/walk.summary" p f
  rm -f "$walk_summary"
  GW="http://127.0.0.1:$GATEWAY_PORT" MAIL="http://127.0.0.1:$MAILPIT_PORT" \
    API_KEY=wpk_compose_development_key_change_me ADMIN_ACCESS_TOKEN=adm_compose_development_token_change_me \
    SUMMARY_FILE="$walk_summary" timeout "$(left)" node deploy/compose-walk.mjs
  if [ -s "$walk_summary" ]; then read -r p f < "$walk_summary"; passed=$((passed + p)); failed=$((failed + f)); else failed=$((failed + 1)); fi
  what="gateway metrics on their own published port"
  check curl -fsS -o /dev/null "http://127.0.0.1:$GATEWAY_METRICS_PORT/metrics"
  phase_end

  phase "docker inspect"
  local id
  for app in "${apps[@]}"; do
    id=$(container "$app")
    what="$app: read-only root file system"; check inspect_is "$id" '{{.HostConfig.ReadonlyRootfs}}' true
    what="$app: runs as 1000:1000"; check inspect_is "$id" '{{.Config.User}}' 1000:1000
    what="$app: all capabilities dropped"; check inspect_is "$id" '{{.HostConfig.CapDrop}}' '[ALL]'
    what="$app: no-new-privileges"; check inspect_is "$id" '{{.HostConfig.SecurityOpt}}' '[no-new-privileges:true]'
    what="$app: its processes run as uid 1000"; check bash -c "[ \"\$(docker exec '$id' id -u)\" = 1000 ]"
    # /app/package.json belongs to the app's user: only the read-only root keeps it unwritable.
    what="$app: writes only to /tmp"; check bash -c "! docker exec '$id' touch /app/package.json 2>/dev/null && docker exec '$id' touch /tmp/probe"
  done
  what="workspace-platform:dev ships built output only"; check only_built_output
  for service in $(compose config --services); do
    what="$service: healthcheck passing"; check inspect_is "$(container "$service")" '{{.State.Health.Status}}' healthy
  done
  phase_end
}

finish() {
  local code=$?
  trap - EXIT INT TERM
  if docker info >/dev/null 2>&1; then
    phase "compose down -v"
    compose down -v --remove-orphans -t 20 > "$dir/down.log" 2>&1 || tail -n 10 "$dir/down.log"
    phase_end
  fi
  if [ "$own_engine" = true ]; then phase "engine stop + network restore"; stop_engine; phase_end; fi
  say "timings:"; printf '    %s\n' "${timings[@]}"
  say "total $SECONDS s"
  [ -n "${SUMMARY_FILE:-}" ] && echo "$passed $failed" > "$SUMMARY_FILE"
  echo "compose boot checks: $passed passed, $failed failed"
  exit "$code"
}

mkdir -p "$dir"
phase "engine"
if ! start_engine; then phase_end; stop_engine; say "SKIPPED: no container engine could be installed or started"; [ -n "${SUMMARY_FILE:-}" ] && echo "0 1" > "$SUMMARY_FILE"; exit 2; fi
phase_end
trap finish EXIT
trap 'exit 1' INT TERM
if ! boot_and_check; then failed=$((failed + 1)); say "the compose boot failed"; fi
[ "$failed" -eq 0 ]
