"""The declared host's services and facts: systemd, journal, processes, sockets, DNS, TLS,
nginx, docker, logins."""
