# Forced readahead ignores a fatal signal.
s/if (fatal_signal_pending(current))/if (0)/
