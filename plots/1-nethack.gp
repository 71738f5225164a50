# The NetHack chart: when does the first /dev/urandom read return?
# Main panel: the headline clock (instruction time under icount where the
# run measured it); beside it TCG, labelled as emulation time. Every boot is
# a filled point (returned, from kernel start) and an open one (the read
# itself); reference lines at 50 ms (the NetHack boot) and 750 ms (the
# complaint). Censored reads are drawn at the read budget. A group per
# condition, a slot per variant of the run (prepare.py: the ticks' places,
# the time axis' range and ticks, which fit the data); the key below.
load 'plots/style.gp'
set logscale y
set yrange [ymin1:ymax1]
eval 'set ytics '.ytics1
refs = "50 with lines dt 2 lc rgb '#555555' title '50 ms: the NetHack boot', 750 with lines dt 3 lc rgb '#aa0000' title '750 ms: the complaint'"
set multiplot layout 1,(ngroups1t > 0 ? 2 : 1) title 'When the first /dev/urandom read returns, by kernel variant and condition'."\n".caption
# both panels end above the key, which the first draws across the bottom
set bmargin at screen 0.28
dat = datadir.'/nethack.dat'
set xtics () rotate by -25 font ',8'
do for [i=0:ngroups1-1] { set xtics add (value(sprintf('g1_%d', i)) value(sprintf('g1x_%d', i))) }
set xrange [-1:ngroups1*(nvariants+1)-1]
set title clock.': from kernel start'
set ylabel 'log scale: filled = returned, open = the read itself'
set key at screen 0.5, screen 0.02 center bottom horizontal opaque box font ',8' spacing 0.9 maxrows 3
eval 'plot '.nethack_guest.', '.refs
if (ngroups1t > 0) {
	dat = datadir.'/nethack_tcg.dat'
	set xtics ()
	do for [i=0:ngroups1t-1] { set xtics add (value(sprintf('g1t_%d', i)) value(sprintf('g1tx_%d', i))) }
	set xrange [-1:ngroups1t*(nvariants+1)-1]
	set title 'emulation time (TCG): the same, slowed by translation'
	set ylabel ''
	unset key
	eval 'plot '.nethack_tcg.', '.refs
}
unset multiplot
