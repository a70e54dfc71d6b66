# fish completion for showcased(8): its flags, and file or directory names after those that take them.
# Install: copy to /usr/share/fish/vendor_completions.d/showcased.fish (make install puts it under
# $(PREFIX)/share/fish/vendor_completions.d, which fish reads for /usr/local and /usr), or ~/.config/fish/completions/.

complete -c showcased -f
complete -c showcased -l config -r -F -d 'the configuration file'
complete -c showcased -l cache-dir -r -a '(__fish_complete_directories)' -d 'the cache directory'
complete -c showcased -n 'not __fish_contains_opt once' -l socket -r -F -d 'the socket to listen on'
complete -c showcased -n 'not __fish_contains_opt socket' -l once -d 'refresh what is due, write the export, report and exit'
complete -c showcased -n '__fish_contains_opt once' -l max-wait -x -a '30s 1m 5m 10m 30m' -d 'with --once: stop waiting after this long'
complete -c showcased -n '__fish_contains_opt once' -l json -d 'with --once: print the report as JSON'
complete -c showcased -s h -l help -d 'show help'
complete -c showcased -l version -d 'show the version'
