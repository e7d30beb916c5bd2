# Stop signals to the stap process alone, with a stand-in staprun: see signals.py.
exec python3 "$(dirname "$0")/signals.py" local
