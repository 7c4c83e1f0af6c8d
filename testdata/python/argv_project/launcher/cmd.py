"""Renders a settings dict into command-line flags: True is a bare flag, False and None are left out."""


def get_py_cmd(module, args):
    cmd = ["python3", "-m", module]
    for key, value in args.items():
        if value is None or value is False or value == "":
            continue
        flag = f"--{key.replace('_', '-')}"
        if value is True:
            cmd.append(flag)
        elif isinstance(value, list):
            cmd.append(flag)
            cmd.extend(map(str, value))
        else:
            cmd.append(flag)
            cmd.append(str(value))
    return cmd
