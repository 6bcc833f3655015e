"""Which programs and flags write: the read/write classifier's table (shell/intent/classify.py).

Each entry maps a program to its rule (shell/intent/rules.py for the shapes and file tools,
shell/intent/services.py for services and hosts). Reads stay reads: `grep -r`, `cat`,
`kubectl get`, `sed -n`, `find -name`, `systemctl status`, `iptables -L`, `crontab -l`.
"""

from __future__ import annotations

from agentbench.sim.shell.intent.rules import (
    Rule,
    awk_rule,
    compress_rule,
    dd_rule,
    every,
    find_rule,
    last_operand,
    perl_rule,
    sed_rule,
    sort_rule,
    tar_rule,
    unzip_rule,
    verbs,
)
from agentbench.sim.shell.intent.services import (
    crontab_rule,
    curl_rule,
    docker_rule,
    ionice_rule,
    ip_rule,
    iptables_rule,
    journalctl_rule,
    kill_rule,
    kubectl_rule,
    nginx_rule,
    psql_rule,
    redis_rule,
    service_rule,
    sysctl_rule,
    systemctl_rule,
    wget_rule,
)

_EVERY = {
    "rm": "rm",
    "rmdir": "rmdir",
    "unlink": "unlink",
    "shred": "shred",
    "touch": "touch",
    "mkdir": "mkdir",
    "mkfifo": "mkfifo",
    "ed": "ed (edits in place)",
    "ex": "ex (edits)",
    "vi": "editor",
    "vim": "editor",
    "nano": "editor",
    "emacs": "editor",
    "tee": "tee writes the file",
    "useradd": "useradd",
    "userdel": "userdel",
    "usermod": "usermod",
    "groupadd": "groupadd",
    "groupdel": "groupdel",
    "passwd": "passwd",
    "chpasswd": "chpasswd",
    "mount": "mount",
    "umount": "umount",
    "swapoff": "swapoff",
    "swapon": "swapon",
    "shutdown": "shutdown",
    "reboot": "reboot",
    "halt": "halt",
    "poweroff": "poweroff",
    "at": "at schedules a job",
    "logrotate": "logrotate",
    "renice": "renice",
    "pkill": "pkill (signals processes)",
    "killall": "killall (signals processes)",
    "chattr": "chattr",
    "truncate": "truncate",
}


_VALUED_FIRST = {"chmod": 1, "chown": 1, "chgrp": 1, "setfacl": 0}


PROGRAMS: dict[str, Rule] = {
    **{
        name: every(why, frozenset({"-s", "--size", "-n", "-u", "-g"}))
        for name, why in _EVERY.items()
    },
    **{
        name: every(
            name,
            drop=n,
            valued=frozenset({"-m", "-x", "-M", "-X", "--set", "--modify", "--remove"}),
        )
        for name, n in _VALUED_FIRST.items()
    },
    "mv": last_operand("mv"),
    "cp": last_operand("cp"),
    "install": last_operand("install"),
    "ln": last_operand("ln"),
    "rsync": last_operand("rsync"),
    "scp": last_operand("scp"),
    "kubectl": kubectl_rule,
    "docker": docker_rule,
    "podman": docker_rule,
    "docker-compose": docker_rule,
    "sed": sed_rule,
    "perl": perl_rule,
    "awk": awk_rule,
    "gawk": awk_rule,
    "psql": psql_rule,
    "mysql": psql_rule,
    "sqlite3": psql_rule,
    "duckdb": psql_rule,
    "kill": kill_rule,
    "crontab": crontab_rule,
    "iptables": iptables_rule,
    "ip6tables": iptables_rule,
    "systemctl": systemctl_rule,
    "service": service_rule,
    "curl": curl_rule,
    "wget": wget_rule,
    "gzip": compress_rule,
    "gunzip": compress_rule,
    "bzip2": compress_rule,
    "xz": compress_rule,
    "unxz": compress_rule,
    "zstd": compress_rule,
    "tar": tar_rule,
    "unzip": unzip_rule,
    "sysctl": sysctl_rule,
    "nginx": nginx_rule,
    "sort": sort_rule,
    "dd": dd_rule,
    "ionice": ionice_rule,
    "journalctl": journalctl_rule,
    "find": find_rule,
    "nft": verbs(frozenset({"add", "delete", "flush", "insert", "replace", "create", "destroy"})),
    "ufw": verbs(
        frozenset(
            {
                "allow",
                "deny",
                "reject",
                "delete",
                "enable",
                "disable",
                "reset",
                "limit",
                "insert",
                "route",
            }
        )
    ),
    "git": verbs(
        frozenset(
            {
                "push",
                "reset",
                "clean",
                "commit",
                "rm",
                "mv",
                "checkout",
                "restore",
                "revert",
                "merge",
                "rebase",
                "stash",
                "apply",
                "am",
                "cherry-pick",
                "pull",
            }
        ),
        frozenset({"-C", "-c"}),
    ),
    "helm": verbs(
        frozenset({"install", "upgrade", "uninstall", "delete", "rollback"}),
        frozenset({"-n", "--namespace", "--kube-context"}),
    ),
    "terraform": verbs(frozenset({"apply", "destroy", "import", "taint", "untaint", "state"})),
    "apt": verbs(
        frozenset({"install", "remove", "purge", "upgrade", "autoremove", "full-upgrade", "update"})
    ),
    "apt-get": verbs(
        frozenset({"install", "remove", "purge", "upgrade", "autoremove", "dist-upgrade", "update"})
    ),
    "yum": verbs(frozenset({"install", "remove", "erase", "update", "upgrade"})),
    "dnf": verbs(frozenset({"install", "remove", "erase", "update", "upgrade"})),
    "pip": verbs(frozenset({"install", "uninstall"})),
    "pip3": verbs(frozenset({"install", "uninstall"})),
    "npm": verbs(frozenset({"install", "uninstall", "ci", "update"})),
    "ip": ip_rule,
    "hostnamectl": verbs(frozenset({"set-hostname", "hostname"})),
    "timedatectl": verbs(frozenset({"set-time", "set-timezone", "set-ntp"})),
    "redis-cli": redis_rule,
    "apachectl": verbs(frozenset({"restart", "graceful", "stop", "start"})),
}
