# Start and stop the scripted model servers (fake_anthropic.py, fake_openai.py)
# on loopback. Sourced by record.sh and ../interop.sh.
PEER_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SERVER_PID=
start_server() {  # start_server SERVER.py PORT SCRIPT.json
  python3 "$PEER_SCRIPTS/$1" "$2" "$PEER_SCRIPTS/$3" &
  SERVER_PID=$!
  python3 - "$2" <<'EOF'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close(); sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit("fake server did not start")
EOF
}
stop_server() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  SERVER_PID=
}
trap stop_server EXIT
