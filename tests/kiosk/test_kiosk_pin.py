"""The director's PIN: salted scrypt, never stored in clear; set-pin asks twice."""

from __future__ import annotations

import tomllib

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.config.station import load_config
from adjudicator.errors import EXIT_CONFIG, EXIT_ENTRY
from adjudicator.event.pin import hash_pin, is_set, verify_pin
from adjudicator.station.pin_gate import LOCKOUT_SECONDS, MAX_TRIES, PinGate


def test_hash_verifies_only_the_right_pin_and_is_salted():
    first, second = hash_pin("2468"), hash_pin("2468")
    assert first != second  # a new salt each time
    assert verify_pin("2468", first) and verify_pin("2468", second)
    assert not verify_pin("2469", first) and not verify_pin("", first)
    assert first.startswith("scrypt$") and is_set(first)


@pytest.mark.parametrize("stored", ["", "2468", "scrypt$x$8$1$AA==$AA==", "md5$abc", "scrypt$$$"])
def test_unusable_stored_values_never_verify(stored):
    assert not verify_pin("2468", stored)


@pytest.mark.parametrize("pin", ["123", "12 34", "1234\n", "x" * 65])
def test_bad_pins_are_refused(pin):
    from adjudicator.errors import ConfigError

    with pytest.raises(ConfigError):
        hash_pin(pin)


def test_set_pin_asks_twice_and_stores_only_a_salted_hash(tmp_path):
    path = tmp_path / "station.toml"
    path.write_text('station = "Hall A"\n')
    result = CliRunner().invoke(main, ["set-pin", "--config", str(path)],
                                input="731902\n731902\n", catch_exceptions=False)
    assert result.exit_code == 0, result.output
    raw = path.read_text()
    assert "731902" not in raw  # never in clear
    stored = tomllib.loads(raw)["pin_hash"]
    assert verify_pin("731902", stored) and not verify_pin("731903", stored)
    assert load_config(str(path)).station == "Hall A"  # the rest of the file is kept


def test_set_pin_creates_a_missing_file_and_refuses_a_mismatch(tmp_path):
    path = tmp_path / "new" / "station.toml"
    runner = CliRunner()
    result = runner.invoke(main, ["set-pin", "--config", str(path)], input="1111\n2222\n")
    assert not path.exists()  # the two entries differ: a usage mistake, nothing saved
    assert result.exit_code == EXIT_ENTRY and "no PIN was set" in result.output
    result = runner.invoke(main, ["set-pin", "--config", str(path)], input="12\n")
    assert result.exit_code == EXIT_ENTRY and "4 to 64 characters" in result.output  # at once
    result = runner.invoke(main, ["set-pin", "--config", str(path)], input="")
    assert result.exit_code == EXIT_CONFIG and "no PIN was set" in result.output
    result = runner.invoke(main, ["set-pin", "--config", str(path)], input="9876\n9876\n")
    assert result.exit_code == 0 and verify_pin("9876", load_config(str(path)).pin_hash)


def test_gate_locks_after_five_wrong_tries_for_sixty_seconds():
    now = [0.0]
    stored = hash_pin("2468")
    gate = PinGate(lambda: stored, clock=lambda: now[0])
    for _ in range(MAX_TRIES - 1):
        assert gate.check("0000") == "wrong"
    assert gate.check("0000") == "locked"
    assert gate.check("2468") == "locked" and gate.seconds_locked() == LOCKOUT_SECONDS
    now[0] += LOCKOUT_SECONDS + 0.1
    assert gate.seconds_locked() == 0 and gate.check("2468") == "ok"


def test_gate_without_a_pin_stays_shut():
    gate = PinGate(lambda: "")
    assert not gate.configured and gate.check("") == "unset" and gate.check("1234") == "unset"


def test_wrong_tries_and_the_lockout_survive_a_new_gate_on_the_same_state_file(tmp_path):
    """A kiosk restarted (a new PinGate) is still locked: restarting never opens the gate."""
    stored = hash_pin("2468")
    state = str(tmp_path / "journal.db.kiosk-state.json")
    now, wall = [100.0], [1_000_000.0]
    gate = PinGate(lambda: stored, lambda: now[0], state_file=state, wall_clock=lambda: wall[0])
    for _ in range(MAX_TRIES - 1):
        assert gate.check("1111") == "wrong"
    again = PinGate(lambda: stored, lambda: 5.0, state_file=state, wall_clock=lambda: wall[0])
    assert again.wrong == MAX_TRIES - 1  # one more wrong try locks it
    assert again.check("1111") == "locked"
    wall[0] += 10
    restarted = PinGate(lambda: stored, lambda: 0.0, state_file=state, wall_clock=lambda: wall[0])
    assert restarted.check("2468") == "locked"
    assert restarted.seconds_locked() == LOCKOUT_SECONDS - 10
    wall[0] += LOCKOUT_SECONDS
    later = PinGate(lambda: stored, lambda: 0.0, state_file=state, wall_clock=lambda: wall[0])
    assert later.check("2468") == "ok"
