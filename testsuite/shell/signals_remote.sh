# Stop signals to `stap --remote=qemu` alone, and a SIGKILLed stap: see signals.py.
exec python3 "$(dirname "$0")/signals.py" remote
