#!/usr/bin/env bash
# Static checks of the deploy files (no Docker engine needed): hadolint on the
# Dockerfile, compose.yaml and compose.postgres.yaml parsed and cross-checked, shell syntax of the entrypoint.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/hadolint Dockerfile
sh -n deploy/entrypoint.sh
.venv/bin/python - <<'PY'
import os, yaml
compose = yaml.safe_load(open("compose.yaml"))
services = compose["services"]
assert set(services) == {"restore", "quire", "litestream"}, services
assert services["quire"]["depends_on"]["restore"]["condition"] == "service_completed_successfully"
assert services["litestream"]["depends_on"]["quire"]["condition"] == "service_healthy"
for name, svc in services.items():
    for vol in svc.get("volumes", []):
        src = vol.split(":")[0]
        if src.startswith("./") and not src.startswith("${"):
            assert os.path.exists(src), f"{name}: {src} is missing"
        assert src in compose["volumes"] or src.startswith(("./", "${")), f"{name}: volume {src}"
print("compose.yaml: 3 services, start order restore -> quire -> litestream, volumes ok")

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
