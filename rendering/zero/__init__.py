"""Images the ZERO! games (carrier, land, Pearl Harbor) share: the Action card badge, the
reveal card, the strike report and the phone-first pieces they are built from."""
