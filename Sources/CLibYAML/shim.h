// libyaml (Debian libyaml-dev) for reading .devkit.yml. Imported only by
// LintConfigFile/Internals/YAMLCalls.swift.
#include <yaml.h>
