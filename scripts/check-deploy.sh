#!/usr/bin/env bash
# Static checks of the deploy files (no Docker engine needed): hadolint on the
# Dockerfile, compose.yaml and compose.postgres.yaml parsed and cross-checked, shell
# syntax of the scripts. scripts/docker-test.sh builds and runs them for real.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/hadolint Dockerfile
sh -n deploy/entrypoint.sh
sh -n deploy/cargo-stubs.sh
bash -n scripts/docker-test.sh scripts/docker-lib.sh scripts/docker-standins.sh
.venv/bin/python - <<'PY'
import os, yaml
compose = yaml.safe_load(open("compose.yaml"))
services = compose["services"]
assert set(services) == {"quire", "litestream"}, services
assert services["litestream"]["depends_on"]["quire"]["condition"] == "service_healthy"
assert services["quire"]["environment"]["QUIRE_LITESTREAM_MODE"] == "sidecar"
for name, svc in services.items():
    assert svc["image"] == "quire:latest", name
    for vol in svc.get("volumes", []):
        src = vol.split(":")[0]
        assert src in compose["volumes"] or src.startswith(("./", "${")), f"{name}: volume {src}"
print("compose.yaml: quire, then the Litestream sidecar once quire is healthy, one image, volumes ok")

pg = yaml.safe_load(open("compose.postgres.yaml"))
services = pg["services"]
assert set(services) == {"postgres", "quire-a", "quire-b"}, services
for name in ("quire-a", "quire-b"):
    svc = services[name]
    assert svc["depends_on"]["postgres"]["condition"] == "service_healthy", name
    assert svc["environment"]["QUIRE_DATABASE_URL"].startswith("postgres://"), name
    assert svc["image"] == "quire:latest", name
ports = {services[n]["ports"][0] for n in ("quire-a", "quire-b")}
assert len(ports) == 2, "the two instances need different host ports"
print("compose.postgres.yaml: postgres, then two quire instances on it, ports ok")
PY
echo "deploy files: ok"
