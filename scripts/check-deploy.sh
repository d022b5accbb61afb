#!/usr/bin/env bash
# Static checks of the deploy files (no Docker engine needed): hadolint on the
# Dockerfile, compose.yaml parsed and cross-checked, shell syntax of the entrypoint.
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
PY
echo "deploy files: ok"
