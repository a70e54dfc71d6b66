# fish completion for showcasectl(1): commands, flags, storefront codes.
# Install: copy to /usr/share/fish/vendor_completions.d/showcasectl.fish (make install puts it under
# $(PREFIX)/share/fish/vendor_completions.d, which fish reads for /usr/local and /usr), or ~/.config/fish/completions/.

# Every command, and every App Store storefront, alpha-2 (alpha-3 and upper case are accepted too).
set -l commands roster app storefronts watch status reload refresh check-config check export metrics changes version help
set -l storefronts ae ag ai al am ao ar at au az ba bb be bf bg bh bj bm bn bo br bs bt bw by bz ca cd cg ch ci cl cm cn co cr cv cy cz de dk dm do dz ec ee eg es fi fj fm fr ga gb gd ge gh gm gr gt gw gy hk hn hr hu id ie il in iq is it jm jo jp ke kg kh kn kr kw ky kz la lb lc lk lr lt lu lv ly ma md me mg mk ml mm mn mo mr ms mt mu mv mw mx my mz na ne ng ni nl no np nr nz om pa pe pg ph pk pl pt pw py qa ro rs ru rw sa sb sc se sg si sk sl sn sr st sv sz tc td th tj tm tn to tr tt tw tz ua ug us uy uz vc ve vg vn vu ye za zm zw

# Arguments are no file names unless a flag or command says so.
complete -c showcasectl -f

# Global flags, accepted before or after the command.
complete -c showcasectl -l socket -r -F -d "the daemon's socket"
complete -c showcasectl -l config -r -F -d 'the configuration file'
complete -c showcasectl -l json -d 'print the reply parameters as JSON'
complete -c showcasectl -s h -l help -d 'show help'
complete -c showcasectl -s V -l version -d 'print the version'

# Commands, until one is given.
set -l none "not __fish_seen_subcommand_from $commands"
complete -c showcasectl -n "$none" -a roster -d "list the developer's apps for a storefront"
complete -c showcasectl -n "$none" -a app -d "show one app of a storefront's roster"
complete -c showcasectl -n "$none" -a storefronts -d 'list every App Store storefront and whether it is kept warm'
complete -c showcasectl -n "$none" -a watch -d 'print each new revision of the roster until interrupted'
complete -c showcasectl -n "$none" -a status -d "show the daemon's version, configuration and each storefront's state"
complete -c showcasectl -n "$none" -a reload -d 'load the edited configuration and overlays, or change nothing'
complete -c showcasectl -n "$none" -a refresh -d 'fetch rosters from the lookup service now'
complete -c showcasectl -n "$none" -a check-config -d 'validate a configuration and its overlays without a daemon'
complete -c showcasectl -n "$none" -a check -d 'monitoring plugin: one status line, exit 0/1/2/3 (no admin rights)'
complete -c showcasectl -n "$none" -a export -d 'write the static export now'
complete -c showcasectl -n "$none" -a metrics -d 'print the Prometheus text exposition'
complete -c showcasectl -n "$none" -a changes -d "list what changed in a storefront's roster: apps added, removed, updated, repriced"
complete -c showcasectl -n "$none" -a version -d "print showcasectl's version and the daemon's"
complete -c showcasectl -n "$none" -a help -d 'show help for showcasectl or one command'

# Each command's own flags.
complete -c showcasectl -n '__fish_seen_subcommand_from roster app watch refresh changes' -l storefront -x -a "$storefronts" \
    -d 'storefront (alpha-2 or alpha-3)'
complete -c showcasectl -n '__fish_seen_subcommand_from roster app changes' -l host -x -d 'host app bundle id'
complete -c showcasectl -n '__fish_seen_subcommand_from roster' -l platform -x -a 'ios macos' -d 'store to list'
complete -c showcasectl -n '__fish_seen_subcommand_from roster' -l device -x -a 'iphone ipad watch tv vision' \
    -d 'only apps for this device family'
complete -c showcasectl -n '__fish_seen_subcommand_from roster' -l os-version -x -d 'hide apps needing a newer OS'
complete -c showcasectl -n '__fish_seen_subcommand_from roster' -l locale -x -d 'tagline language'
complete -c showcasectl -n '__fish_seen_subcommand_from roster' -l wait -x -d 'seconds to wait for a warming roster'
complete -c showcasectl -n '__fish_seen_subcommand_from changes' -l since -x -d 'only changes with a serial above this'
complete -c showcasectl -n '__fish_seen_subcommand_from changes' -l limit -x -d 'at most this many changes (1-1000)'
complete -c showcasectl -n '__fish_seen_subcommand_from changes' -l locale -x -d 'the roster in this language'
complete -c showcasectl -n '__fish_seen_subcommand_from check' -l max-age -x -a '1h 12h 24h 48h 7d' \
    -d 'stale past this is critical (default: twice refresh.interval)'

# Positional arguments.
complete -c showcasectl -n '__fish_seen_subcommand_from check-config' -F -d 'configuration file'
complete -c showcasectl -n '__fish_seen_subcommand_from help' -a "$commands"
