#!/usr/bin/env python3
# net-trickle.py [--clients N] [--seconds S] [--gap G] MODE PORT: N slow peers
# of the listener on 127.0.0.1:PORT, for S seconds in all.  Each one gets
# through a step of the protocol (trace-cmd-listen(1), PROTOCOL) at full speed, then
# sends one byte every G seconds of what follows, for ever:
#   handshake  nothing: the v3 request, byte by byte
#   v3         the v3 handshake and TINIT; then a SEND_DATA message of 8 KB
#   v1         the v1 strings; then the file header (any bytes)
# A peer that the listener cuts or refuses connects again at once, so every
# slot stays wanted.  At the end it prints "connections=C cut=X refused=R".
import argparse, socket, struct, sys, threading, time

V3 = b"-1V3\0" + b"766679\0\0"
TINIT = struct.pack(">III", 24, 1, 12) + struct.pack(">III", 2, 4096, 0)
SEND_DATA = struct.pack(">III", 8192, 3, 0)

counts = {"connections": 0, "cut": 0, "refused": 0}
lock = threading.Lock()


def count(what):
    with lock:
        counts[what] += 1


def read_exactly(s, n):
    data = b""
    while len(data) < n:
        got = s.recv(n - len(data))
        if not got:
            raise EOFError
        data += got
    return data


def read_string(s):
    data = b""
    while not data.endswith(b"\0"):
        got = s.recv(1)
        if not got:
            raise EOFError
        data += got
    return data


# Gets through the fast part; returns the bytes to trickle.
def start(s, mode):
    if mode == "handshake":
        return V3
    if mode == "v1":
        s.sendall(b"2\0" b"4096\0" b"0\0")
        read_string(s)
        return b"\x17\x08\x44tracing6\0" * 1000
    s.sendall(V3)
    read_exactly(s, 5)
    s.sendall(TINIT)
    size = struct.unpack(">I", read_exactly(s, 4))[0]
    read_exactly(s, size - 4)
    return SEND_DATA + b"x" * (8192 - 12)


# True when the listener hung up on us.
def hung_up(s):
    s.setblocking(False)
    try:
        return s.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        s.setblocking(True)


# Waits @gap seconds; False when the listener hung up or the time is over.
def pause(s, gap, end):
    until = time.time() + gap
    while time.time() < until:
        if hung_up(s) or time.time() >= end:
            return False
        time.sleep(0.05)
    return True


def peer(mode, port, gap, end):
    while time.time() < end:
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(5)
        try:
            if read_exactly(s, 8) != b"tracecmd":
                raise EOFError
        except (EOFError, OSError):
            count("refused")
            s.close()
            time.sleep(0.05)
            continue
        count("connections")
        try:
            for b in start(s, mode):
                s.sendall(bytes([b]))
                if not pause(s, gap, end):
                    break
        except (EOFError, OSError):
            pass
        if time.time() < end:
            count("cut")
        s.close()


ap = argparse.ArgumentParser()
ap.add_argument("--clients", type=int, default=64)
ap.add_argument("--seconds", type=float, default=10)
ap.add_argument("--gap", type=float, default=2)
ap.add_argument("mode", choices=["handshake", "v3", "v1"])
ap.add_argument("port", type=int)
args = ap.parse_args()
end = time.time() + args.seconds
threads = [threading.Thread(target=peer, args=(args.mode, args.port, args.gap, end))
           for _ in range(args.clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("connections=%d cut=%d refused=%d" % (counts["connections"], counts["cut"],
                                               counts["refused"]))
