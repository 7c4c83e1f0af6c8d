"""Turns a settings dict into `vllm serve` flags: True is a bare flag, None and False are left out."""


def to_cli_flags(options):
    argv = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        else:
            argv += [flag, str(value)]
    return argv


def to_equals_flags(options):
    values = [f"--{key.replace('_', '-')}={value}" for key, value in options.items() if value not in (None, True, False)]
    switches = [f"--{key.replace('_', '-')}" for key, value in options.items() if value is True]
    return values + switches
