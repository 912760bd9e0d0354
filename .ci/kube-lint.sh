#!/usr/bin/env bash
# The Kubernetes manifests (deploy/kubernetes): rendered as kustomize would (the base, and the
# base with every component), validated offline against the Kubernetes schemas with
# kubernetes-validate (strict: unknown fields fail), and checked against the deployment
# policies in .ci/kube_policy.py, which also proves each check catches a deliberate breakage.
#
#   bash .ci/kube-lint.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
REQUIREMENTS=("kubernetes-validate==1.37.0" "PyYAML==6.0.4")
log() { printf 'kube-lint: %s\n' "$*"; }
source "$ROOT/.ci/venv.sh"
VENV="$CACHE/kube-venv"
setup_venv "$VENV" kubernetes-validate
"$VENV/bin/python" .ci/kube_policy.py deploy/kubernetes
