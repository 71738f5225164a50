# The NetHack chart: when does the first /dev/urandom read return?
# Main panel: the headline clock (instruction time under icount where the
# run measured it); beside it TCG, labelled as emulation time. Every boot is
# a filled point (returned, ms from kernel start) and an open one (the read
# itself); reference lines at 50 ms (the NetHack boot) and 750 ms (the
# complaint). Censored reads are drawn at the read budget.
load 'plots/style.gp'
set logscale y
# four decades above the longest wait (~2.6e5 ms) hold the key clear of the points
set yrange [0.001:1000000000]
set ytics 100
set format y '%g'
refs = "50 with lines dt 2 lc rgb '#555555' title '50 ms: the NetHack boot', 750 with lines dt 3 lc rgb '#aa0000' title '750 ms: the complaint'"
set multiplot layout 1,(ngroups1t > 0 ? 2 : 1) title 'When the first /dev/urandom read returns, by kernel variant and condition'."\n".caption
dat = datadir.'/nethack.dat'
set xtics () rotate by -25 font ',8'
do for [i=0:ngroups1-1] { set xtics add (value(sprintf('g1_%d', i)) i*(nvariants+1)+1.5) }
set xrange [-1:ngroups1*(nvariants+1)-1]
set title clock.': guest ms from kernel start'
set ylabel 'ms (log scale): filled = returned, open = the read itself'
set key inside left top opaque box font ',8' spacing 0.9 maxrows 4 width -4
eval 'plot '.nethack_guest.', '.refs
if (ngroups1t > 0) {
	dat = datadir.'/nethack_tcg.dat'
	set xtics ()
	do for [i=0:ngroups1t-1] { set xtics add (value(sprintf('g1t_%d', i)) i*(nvariants+1)+1.5) }
	set xrange [-1:ngroups1t*(nvariants+1)-1]
	set title 'emulation time (TCG): the same, slowed by translation'
	set ylabel ''
	unset key
	eval 'plot '.nethack_tcg.', '.refs
}
unset multiplot
