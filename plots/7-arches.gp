# The revert's architectures on the run's kernel base (MATRIX=arches): per
# machine and condition, every boot's CRNG ready time (filled) and the first
# urandom read's own wait (open), ms from kernel start on a log scale; black
# marks are still waiting at their bound (the report's, the read's budget). One
# panel per clock: instruction time (icount) above, emulation time (TCG)
# below. A CRNG ready logged before timekeeping (the probe's 0 ms, no time:
# cells.BEFORE_CLOCK) sits on the floor, said in the title. A group per
# machine and condition, a slot per variant of the run (prepare.py: the
# ticks' places).
load 'plots/style.gp'
if (fmt eq 'png') set terminal pngcairo size 1000,1000 font 'DejaVu Sans,10' noenhanced
if (fmt eq 'svg') set terminal svg size 1000,1000 font 'DejaVu Sans,10' noenhanced
set output out
set logscale y
set yrange [floor_ms*0.5:1e8]
set ytics ('1 us' 0.001, '0.1 ms' 0.1, '10 ms' 10, '1 s' 1000, '100 s' 1e5, '10^4 s' 1e7)
set multiplot layout npanels,1 title "The revert's architectures on Linux ".kernel_base.": CRNG ready and the first /dev/urandom read\n".caption
do for [p=0:npanels-1] {
	dat = datadir.sprintf('/arches_%d.dat', p)
	n = value(sprintf('ngroups_%d', p))
	set xtics () rotate by -20 font ',8'
	do for [i=0:n-1] { set xtics add (value(sprintf('g%d_%d', p, i)) value(sprintf('g%dx_%d', p, i))) }
	set xrange [-1:n*(nvariants+1)-1]
	set title value(sprintf('panel_%d', p)).': guest ms from kernel start (log; ready before timekeeping: on the floor)'
	set ylabel 'ms: filled = CRNG ready, open = read waited'
	if (p == 0) { set key inside left top opaque box font ',8' spacing 0.9 maxrows 4 width -6 } else { unset key }
	eval 'plot '.value(sprintf('arches_%d', p)).", 750 with lines dt 3 lc rgb '#aa0000' title '750 ms: the complaint'"
}
unset multiplot
