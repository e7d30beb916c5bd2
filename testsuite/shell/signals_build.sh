# Stop signals to stap while it builds a module (pass 4): see signals.py.
exec python3 "$(dirname "$0")/signals.py" build
