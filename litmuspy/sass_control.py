#!/usr/bin/env python3
"""Annotates `nvdisasm -hex` output with each instruction's scheduling control fields.

On Volta and later GPUs (sm_70 .. sm_90 here) an instruction is 128 bits; nvdisasm -hex prints
the low 64-bit word after the instruction and the high word alone on the next line. The top 23
bits of the high word are the control fields that the assembler sets (as read by the published
reverse-engineering work: Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
Microbenchmarking", 2018, and the maxas/CuAssembler notes):

    high-word bits  41-44  stall   cycles before the next instruction of the warp may issue
                    45     yield   bit; 0 is read as "yield" (printed Y), 1 as no yield (-)
                    46-48  wr      scoreboard (0-5) this instruction releases when its result is
                                   written; 7 = none
                    49-51  rd      scoreboard released when its source operands have been read;
                                   7 = none
                    52-57  wait    mask of scoreboards that must be released before it issues
                    58-61  reuse   operand reuse-cache flags

An instruction with a variable latency (memory, SYNCS, S2R, ...) is tracked by a scoreboard; a
later instruction orders itself after it only by waiting on that scoreboard (or by stalling
long enough, which fixed-latency instructions rely on). The annotation names, for each waited
scoreboard, the nearest earlier instruction in the listing that sets it. That is a linear scan:
across a branch target the setter may be another path's, so read those by hand.

    python3 -m litmuspy.sass_control [--hex] [FILE]      FILE defaults to standard input

Output, one line per instruction:
    /*0310*/ @P2 SYNCS.PHASECHK.TRANS64.TRYWAIT P3, [R0+UR8], R13 ;  | S01 - wr=1 rd=- wait=-
    /*0330*/ @P2 SEL R8, RZ, 0x1, !P3 ;  | S02 - wr=- rd=- wait=1 <- 1:/*0310*/ SYNCS.PHASECHK...
Other lines (labels, section headers) pass through unchanged.
"""

import re
import signal
import sys

# "        /*0310*/               @P2 SYNCS... ;     /* 0x0000000d000025a7 */"
INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?;)\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")
# the high word, alone on the next line
HIGH_WORD = re.compile(r"^\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")


class Control:
    """The control fields of one instruction's high word."""

    def __init__(self, high):
        bits = high >> 41
        self.stall = bits & 0xF
        self.yield_bit = (bits >> 4) & 1
        self.write = (bits >> 5) & 7
        self.read = (bits >> 8) & 7
        self.wait = (bits >> 11) & 0x3F
        self.reuse = (bits >> 17) & 0xF

    def waited(self):
        return [b for b in range(6) if self.wait >> b & 1]

    def __str__(self):
        sb = lambda v: "-" if v == 7 else str(v)
        waits = ",".join(str(b) for b in self.waited()) or "-"
        reuse = "" if not self.reuse else " reuse=" + "".join("abcd"[i] if self.reuse >> i & 1 else "-" for i in range(4))
        return "S%02d %s wr=%s rd=%s wait=%s%s" % (
            self.stall, "Y" if self.yield_bit == 0 else "-", sb(self.write), sb(self.read), waits, reuse)


def short(text, width=40):
    return text if len(text) <= width else text[: width - 3] + "..."


def annotate(lines, keep_hex=False):
    """Yields the annotated lines for the lines of an nvdisasm -hex listing."""
    setter = {}  # scoreboard -> "addr text" of the nearest earlier instruction that sets it
    pending = None  # (address, text, low word) waiting for its high word
    for line in lines:
        line = line.rstrip("\n")
        if pending is not None:
            high = HIGH_WORD.match(line)
            address, text, low = pending
            pending = None
            if high:
                word = int(high.group(1), 16)
                c = Control(word)
                notes = ["%d:/*%s*/ %s" % (b, *setter[b]) for b in c.waited() if b in setter]
                note = (" <- " + "; ".join(notes)) if notes else ""
                raw = "  [%s %s]" % (low, high.group(1)) if keep_hex else ""
                yield "/*%s*/ %s  | %s%s%s" % (address, text, c, note, raw)
                for b in (c.write, c.read):
                    if b != 7:
                        setter[b] = (address, short(" ".join(text.split())))
                continue
            yield "/*%s*/ %s  | (no high word)" % (address, text)
        m = INSTRUCTION.match(line)
        if m:
            pending = (m.group(1), " ".join(m.group(2).split()), m.group(3))
            continue
        if line.startswith(".text.") or line.startswith("//----"):
            setter = {}  # a new function: nothing carries over
        yield line
    if pending is not None:
        yield "/*%s*/ %s  | (no high word)" % pending[:2]


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    keep_hex = "--hex" in argv
    files = [a for a in argv if a != "--hex"]
    if any(a.startswith("-") and a != "-" for a in files) or len(files) > 1:
        sys.stderr.write("usage: python3 -m litmuspy.sass_control [--hex] [FILE]\n")
        return 2
    try:
        source = open(files[0]) if files and files[0] != "-" else sys.stdin
    except OSError as e:
        sys.stderr.write("%s: error: %s\n" % (files[0], e.strerror))
        return 2
    with source:
        for out in annotate(source, keep_hex):
            print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
