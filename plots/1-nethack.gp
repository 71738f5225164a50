# The NetHack chart: when does the first /dev/urandom read return?
# Every boot is a point; reference lines at 50 ms (the NetHack boot) and
# 750 ms (the complaint). Guest clock from kernel start; host clock from the
# moment QEMU was spawned (firmware and kernel loading included).
load 'plots/style.gp'
dat = datadir.'/nethack.dat'
set xtics () rotate by 0
do for [i=0:ngroups1-1] { set xtics add (value(sprintf('g1_%d', i)) i*(nvariants+1)+1.5) }
set xrange [-1:ngroups1*(nvariants+1)-1]
set logscale y
set yrange [1:100000]
set format y '%g'
set ylabel 'first blocking /dev/urandom read returned (ms, log scale)'
refs = "50 with lines dt 2 lc rgb '#555555' title '50 ms: the NetHack boot', 750 with lines dt 3 lc rgb '#aa0000' title '750 ms: the complaint'"
if (fmt eq 'dumb') {
	set title 'First urandom read returns (guest ms, log)'
	unset key
	eval 'plot '.nethack_guest.', '.refs
} else {
	set multiplot layout 1,2 title 'When the first /dev/urandom read returns, by kernel variant (TCG)'."\n".caption
	set title 'guest clock: from kernel start'
	set key inside bottom right opaque box font ',9' spacing 0.9
	eval 'plot '.nethack_guest.', '.refs
	set title 'host clock: from QEMU start'
	set ylabel ''
	unset key
	eval 'plot '.nethack_host.', '.refs
	unset multiplot
}
