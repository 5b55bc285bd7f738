"""One parser for the online options of both commands (koikoi.net.options): ``koikoi
serve --host/--port`` and ``koikoi --host/--join/--server/--name`` check an address, a
port, a room code and a name the same way, and say what is wrong on one line."""

from __future__ import annotations

import pytest

from koikoi import __main__ as game
from koikoi.net import cli, options


def _types(parser_fn, argv) -> dict:
    """Each option's type function, as the parser of a command has it."""
    import argparse
    seen = {}
    real = argparse.ArgumentParser.parse_args

    def spy(self, args=None, namespace=None):
        seen.update({a.dest: a.type for a in self._actions})
        return real(self, args, namespace)
    argparse.ArgumentParser.parse_args = spy
    try:
        parser_fn(argv)
    finally:
        argparse.ArgumentParser.parse_args = real
    return seen


def test_both_commands_use_the_shared_checks():
    serve = _types(cli.parse_args, [])
    play = _types(game.parse_args, [])
    assert serve["host"] is options.listen_host and serve["port"] is options.port
    assert play["join"] is options.join_address and play["server"] is options.server_address
    assert play["name"] is options.player_name


@pytest.mark.parametrize("host, seen", [("0.0.0.0", "0.0.0.0"), ("::", "::"), ("[::1]", "::1"),
                                        ("localhost", "localhost"), ("play.example.org", "play.example.org")])
def test_serve_listens_on_addresses_and_host_names(host, seen):
    assert cli.parse_args(["--host", host]).host == seen


@pytest.mark.parametrize("argv, said", [
    (["--host", "bad host!"], "koikoi serve: argument --host: expected an address"),
    (["--host", "999.1.1.1"], "koikoi serve: argument --host: expected an address"),
    (["--port", "70000"], "koikoi serve: argument --port: a port is 0 to 65535"),
    (["--port", "eighty"], "koikoi serve: argument --port: expected a port number"),
])
def test_serve_refuses_a_bad_address_on_one_line(argv, said, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.parse_args(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith(said) and err.count("\n") == 1


@pytest.mark.parametrize("argv, said", [
    (["--join", "192.168.1.20:99999/KOI-4821"], "koikoi: argument --join: a port is a number from 1 to 65535"),
    (["--host", "--server", "bad host:1"], "koikoi: argument --server: an address looks like"),
    (["--server", "play.example.org:8765"], "koikoi: --server goes with --host"),
    (["--join", "play.example.org:8765/KOI-12"], "koikoi: argument --join: a room code looks like"),
])
def test_the_game_refuses_a_bad_address_on_one_line(argv, said, capsys):
    with pytest.raises(SystemExit) as exc:
        game.parse_args(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith(said) and err.count("\n") == 1


def test_the_game_reads_a_join_and_a_server():
    args = game.parse_args(["--join", "wss://play.example.org:443/4821", "--name", " Haru "])
    assert tuple(args.join) == ("play.example.org", 443, "KOI-4821") and args.join.secure and args.name == "Haru"
    assert game.parse_args(["--host", "--server", "127.0.0.1:8765"]).server == "127.0.0.1:8765"
