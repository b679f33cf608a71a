import {
  ENDPOINT_MAX_LINES,
  ENDPOINT_PORT_MAX_DIGITS,
  RECOVER_ENV_MAX_ANCESTORS,
  SPOOL_MAX_BYTES,
  SPOOL_PANE_KEY_CHARS,
  SPOOL_RESET_AFTER_DAYS,
} from '../constants.ts';

/** Characters allowed in endpoint values, spelled out (a `case` range depends on the locale). */
export const VALUE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:/-';

/**
 * `orca_parse_endpoint FILE`: the §5 parser in POSIX sh builtins only (no `.`, no `eval`, no
 * subprocess). Sets `orca_ep_port`, `orca_ep_token`, `orca_ep_env`, `orca_ep_version`,
 * `orca_ep_transport`; returns 0 iff the file is a readable regular file with valid PORT and TOKEN.
 */
export function parseEndpointFunction(withTransport: boolean): string {
  return `orca_parse_endpoint() {
  orca_ep_port=''
  orca_ep_token=''
  orca_ep_env=''
  orca_ep_version=''
${withTransport ? "  orca_ep_transport=''\n" : ''}  [ -n "$1" ] && [ -f "$1" ] && [ -r "$1" ] || return 1
  orca_n=0
  orca_cr='\r' # a literal CR byte
  while IFS= read -r orca_line || [ -n "$orca_line" ]; do
    orca_n=$((orca_n + 1))
    [ "$orca_n" -le ${ENDPOINT_MAX_LINES} ] || break
    case $orca_line in *"$orca_cr") orca_line=\${orca_line%?} ;; esac
    case $orca_line in set\\ ORCA_AGENT_HOOK_*) orca_line=\${orca_line#set } ;; esac
    case $orca_line in
      ORCA_AGENT_HOOK_PORT=*) orca_key='port' ;;
      ORCA_AGENT_HOOK_TOKEN=*) orca_key='token' ;;
      ORCA_AGENT_HOOK_ENV=*) orca_key='env' ;;
      ORCA_AGENT_HOOK_VERSION=*) orca_key='version' ;;
      ORCA_AGENT_HOOK_TRANSPORT=*) orca_key='transport' ;;
      *) continue ;;
    esac
    orca_val=\${orca_line#*=}
    case $orca_val in ''|*[!${VALUE_CHARS}]*) continue ;; esac
    case $orca_key in
      port)
        case $orca_val in *[!0123456789]*) continue ;; esac
        [ "\${#orca_val}" -le ${ENDPOINT_PORT_MAX_DIGITS} ] || continue
        orca_ep_port=$orca_val ;;
      token) orca_ep_token=$orca_val ;;
      env) orca_ep_env=$orca_val ;;
      version) orca_ep_version=$orca_val ;;
      transport) ${withTransport ? 'orca_ep_transport=$orca_val ' : ''};;
    esac
  done < "$1"
  [ -n "$orca_ep_port" ] && [ -n "$orca_ep_token" ]
}`;
}

/** `orca_refresh_endpoint`: the endpoint file (if it parses) overwrites the env; transport only from the file. */
export function refreshEndpointFunction(withTransport: boolean): string {
  return `orca_refresh_endpoint() {
${withTransport ? "  orca_transport=''\n" : ''}  orca_parse_endpoint "\${ORCA_AGENT_HOOK_ENDPOINT-}" 2>/dev/null || return 0
  ORCA_AGENT_HOOK_PORT=$orca_ep_port
  ORCA_AGENT_HOOK_TOKEN=$orca_ep_token
  [ -z "$orca_ep_env" ] || ORCA_AGENT_HOOK_ENV=$orca_ep_env
  [ -z "$orca_ep_version" ] || ORCA_AGENT_HOOK_VERSION=$orca_ep_version
${withTransport ? '  orca_transport=$orca_ep_transport\n' : ''}}`;
}

/** `orca_json_escape`: JSON string body of stdin (bytes kept; backslash, quote, controls escaped; lines joined by `\\n`). */
function jsonEscapeFunction(): string {
  const controls: string[] = [];
  for (let i = 1; i < 32; i++) {
    if (i === 10) continue;
    const named: Record<number, string> = { 8: 'b', 9: 't', 12: 'f', 13: 'r' };
    const to = named[i] ?? `u00${i.toString(16).padStart(2, '0')}`;
    controls.push(
      `    orca_esc_prog="$orca_esc_prog;s/$(command -p printf '\\${i.toString(8).padStart(3, '0')}')/"'\\\\${to}/g'`,
    );
  }
  return `orca_esc_prog=
orca_json_escape() {
  if [ -z "\${orca_esc_prog-}" ]; then
    orca_esc_prog='s/\\\\/\\\\\\\\/g;s/"/\\\\"/g'
${controls.join('\n')}
  fi
  LC_ALL=C command -p sed -e "$orca_esc_prog" | LC_ALL=C command -p awk -v ORS= '{ if (NR > 1) printf "%s", "\\\\n"; print }'
}`;
}

/** Builds the spool function for `source` (spec §4 spool). */
export function spoolFunction(source: string): string {
  return `${jsonEscapeFunction()}
orca_json_field() {
  orca_json_escape <<ORCA_FIELD
$1
ORCA_FIELD
}
spool_hook_event() {
  [ -f "\${ORCA_AGENT_HOOK_ENDPOINT-}" ] && [ -r "\${ORCA_AGENT_HOOK_ENDPOINT-}" ] || return 0
  [ -n "\${ORCA_PANE_KEY-}" ] || return 0
  case $payload in
    *'"hook_event_name":"PreToolUse"'*|*'"hook_event_name":"PostToolUse"'*|*'"hook_event_name":"PostToolUseFailure"'*) return 0 ;;
  esac
  orca_dir=\${ORCA_AGENT_HOOK_ENDPOINT%/*}
  [ "$orca_dir" != "$ORCA_AGENT_HOOK_ENDPOINT" ] || orca_dir=.
  orca_dir=$orca_dir/spool
  orca_key=$ORCA_PANE_KEY
  while [ "\${#orca_key}" -gt ${SPOOL_PANE_KEY_CHARS} ]; do orca_key=\${orca_key#?}; done
  orca_name=
  while [ -n "$orca_key" ]; do
    orca_rest=\${orca_key#?}
    orca_c=\${orca_key%"$orca_rest"}
    orca_key=$orca_rest
    case $orca_c in /|:) orca_c=_ ;; esac
    orca_name=$orca_name$orca_c
  done
  orca_file=$orca_dir/pane-$orca_name.jsonl
  (umask 077 && command -p mkdir -p "$orca_dir") 2>/dev/null || return 0
  if [ -f "$orca_file" ] && [ -n "$(command -p find "$orca_file" -mtime +${SPOOL_RESET_AFTER_DAYS - 1} 2>/dev/null)" ]; then
    : 2>/dev/null >"$orca_file"
  fi
  if [ -f "$orca_file" ]; then
    orca_size=$(command -p wc -c <"$orca_file" 2>/dev/null)
    [ "$((orca_size + 0))" -lt ${SPOOL_MAX_BYTES} ] || return 0
  fi
  orca_received=$(command -p date +%s 2>/dev/null)000
  (
    umask 077
    {
      command -p printf '{"paneKey":"%s","tabId":"%s","worktreeId":"%s","env":"%s","version":"%s","launchToken":"%s","source":"%s","receivedAt":%s,"payload":"' \\
        "$(orca_json_field "\${ORCA_PANE_KEY-}")" "$(orca_json_field "\${ORCA_TAB_ID-}")" \\
        "$(orca_json_field "\${ORCA_WORKTREE_ID-}")" "$(orca_json_field "\${ORCA_AGENT_HOOK_ENV-}")" \\
        "$(orca_json_field "\${ORCA_AGENT_HOOK_VERSION-}")" "$(orca_json_field "\${ORCA_AGENT_LAUNCH_TOKEN-}")" \\
        '${source}' "$orca_received"
      orca_json_escape <<ORCA_PAYLOAD
$payload
ORCA_PAYLOAD
      command -p printf '"}\\n'
    } >>"$orca_file"
  ) 2>/dev/null
  command -p chmod 600 "$orca_file" 2>/dev/null
  return 0
}`;
}

/** Keys `recoverEnv` may fill (only when empty). */
export const RECOVERABLE_KEYS = [
  'ORCA_AGENT_HOOK_PORT',
  'ORCA_AGENT_HOOK_TOKEN',
  'ORCA_AGENT_HOOK_ENV',
  'ORCA_AGENT_HOOK_VERSION',
  'ORCA_AGENT_HOOK_ENDPOINT',
  'ORCA_PANE_KEY',
  'ORCA_TAB_ID',
  'ORCA_WORKTREE_ID',
  'ORCA_AGENT_LAUNCH_TOKEN',
] as const;

/** `orca_recover_env`: fill empty ORCA_* keys from ancestors' environments (spec §4 recoverEnv). */
export function recoverEnvFunction(): string {
  const fills = RECOVERABLE_KEYS.map(
    (k) =>
      `    if [ -z "\${${k}-}" ]; then\n      case $orca_envnl in *"\${orca_nl}${k}="*) orca_v=\${orca_envnl#*"\${orca_nl}${k}="}; ${k}=\${orca_v%%"$orca_nl"*} ;; esac\n    fi`,
  ).join('\n');
  const missing = RECOVERABLE_KEYS.map((k) => `[ -n "\${${k}-}" ]`).join(' && ');
  return `orca_nl='
'
orca_recover_env() {
  orca_pid=\${PPID-}
  orca_hops=0
  while [ "$orca_hops" -lt ${RECOVER_ENV_MAX_ANCESTORS} ]; do
    case $orca_pid in ''|*[!0123456789]*) break ;; esac
    [ "$orca_pid" -gt 1 ] || break
    if ${missing}; then break; fi
    if [ -r "/proc/$orca_pid/environ" ]; then
      orca_environ=$(command -p tr '\\000' '\\n' <"/proc/$orca_pid/environ" 2>/dev/null)
    else
      orca_environ=$(command -p ps eww -o command= -p "$orca_pid" 2>/dev/null | command -p tr ' ' '\\n')
    fi
    orca_envnl=$orca_nl$orca_environ
${fills}
    if [ -r "/proc/$orca_pid/stat" ]; then
      IFS= read -r orca_stat <"/proc/$orca_pid/stat"
      orca_stat=\${orca_stat##*) }
      orca_stat=\${orca_stat#* }
      orca_pid=\${orca_stat%% *}
    else
      orca_pid=$(command -p ps -o ppid= -p "$orca_pid" 2>/dev/null)
      orca_pid=\${orca_pid##* }
    fi
    orca_hops=$((orca_hops + 1))
  done
  if [ -z "\${ORCA_AGENT_HOOK_TOKEN-}" ] && [ -z "\${ORCA_AGENT_HOOK_ENDPOINT-}" ]; then
    for orca_default in "\${XDG_DATA_HOME:-\${HOME-}/.local/share}/orca/agent-hooks/endpoint.env" "\${HOME-}/Library/Application Support/orca/agent-hooks/endpoint.env"; do
      if orca_parse_endpoint "$orca_default" 2>/dev/null && [ "$orca_ep_port" = "\${ORCA_AGENT_HOOK_PORT-}" ]; then
        ORCA_AGENT_HOOK_ENDPOINT=$orca_default
        break
      fi
    done
  fi
}`;
}
