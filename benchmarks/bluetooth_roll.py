"""How long a Bluetooth die's roll takes from its RollState notification to the table's queue.

A virtual Pixels die and a virtual GoDice on bumble's emulated controllers
(hardware/emulated.py), the die source as on the table (hardware/bluetooth.py):
each roll's notification is timed as the die sends it and as the face is
handed to ``enqueue_roll``. Prints a table (docs/benchmarks.md)::

    .venv/bin/python -m benchmarks.bluetooth_roll
"""

from __future__ import annotations

import statistics
from concurrent.futures import Future
from typing import Any

from hardware.bluetooth import BluetoothDie
from hardware.config import DieConfig, PairedDie
from hardware.emulated import EmulatedRadio, VirtualDie, VirtualGoDice, VirtualPixels

ROLLS = 200


class _Sink:
    def enqueue_roll(self, value: Any, source: str) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(None)
        return future


def measure(die: VirtualDie, rolls: int = ROLLS) -> list[float]:
    """Milliseconds from the rest's notification to the queue, one per roll."""
    radio = EmulatedRadio(die)
    source = BluetoothDie(DieConfig(retry_seconds=0.05, bluetooth=(PairedDie(die.address, die.make.value, die.name),)),
                          _Sink(), transport=radio, scan_seconds=0.2)
    source.start()
    try:
        assert source.wait_connected(die.address, True, 20)
        times = []
        for n in range(rolls):
            radio.run(lambda: die.roll(1 + n % 6))
            assert source.wait_for_rolls(n + 1, 5)
            times.append((source.queued_at[-1] - die.notified_at[-1]) * 1000)
        return times
    finally:
        source.stop()


def main() -> None:
    print(f"| die | rolls | median ms | 95th percentile ms | most ms |\n|---|---:|---:|---:|---:|")
    for die in (VirtualPixels("F0:00:00:00:00:01", "Pixel"), VirtualGoDice("E0:00:00:00:00:02")):
        times = sorted(measure(die))
        print(f"| {die.make.value} | {len(times)} | {statistics.median(times):.2f} | "
              f"{times[int(len(times) * 0.95)]:.2f} | {times[-1]:.2f} |")


if __name__ == "__main__":
    main()
