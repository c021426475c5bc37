# tests/reports/suite.mk — suite `reports` (`make check-reports`): what every report
# format says is true of the user's original files; SARIF validated against the official
# 2.1.0 schema and GitHub's ingestion rules (SARIF Multitool, npm), the JSON against
# analyzer/report.schema.json, the review page driven in headless Chromium.
#
# The validator comes from npm at `make deps` time and is cached under build/; the tests
# themselves need no network.

SARIF_TOOLS      := $(BUILD)/sarif-tools
SARIF_MULTITOOL_VERSION := 5.7.0
SARIF_MULTITOOL  := $(SARIF_TOOLS)/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
SARIF_SCHEMA     := $(SARIF_TOOLS)/sarif-schema-2.1.0.json

# Debian's nodejs comes without npm (the package npm); a nodejs that brings its own npm
# (e.g. NodeSource's, which conflicts with Debian's npm) is left as it is.
DEBIAN_PACKAGES += nodejs python3-jsonschema $(if $(shell command -v npm),,npm)

# Run by `make deps` after the packages are installed (DEPS_STEPS, top Makefile).
.PHONY: deps-sarif-tools
DEPS_STEPS += deps-sarif-tools
deps-sarif-tools: $(SARIF_SCHEMA)

$(SARIF_MULTITOOL):
	@command -v npm >/dev/null || { echo "deps: npm is missing (Debian package npm)" >&2; exit 2; }
	@mkdir -p $(SARIF_TOOLS)
	cd $(SARIF_TOOLS) && npm install --no-audit --no-fund --ignore-scripts --prefix . \
		@microsoft/sarif-multitool@$(SARIF_MULTITOOL_VERSION) >/dev/null
	chmod u+x $@
	@touch $@

$(SARIF_SCHEMA): $(SARIF_MULTITOOL) $(TOP)/tests/reports/extract_sarif_schema.py
	python3 $(TOP)/tests/reports/extract_sarif_schema.py $< $@

CHECK_SUITES += reports
.PHONY: check-reports
check-reports: $(BUILD)/blkmig
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) SARIF_MULTITOOL=$(SARIF_MULTITOOL) \
		SARIF_SCHEMA=$(SARIF_SCHEMA) bash $(TOP)/tests/reports/run.sh
