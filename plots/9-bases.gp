# The kernel bases side by side (MATRIX=bases): per cell (machine, variant,
# condition, vCPUs), every boot's first /dev/urandom read's return, ms from
# kernel start on a log scale, a colour per base, each base beside the
# other; black marks are still waiting at the read's budget. One panel per
# clock: instruction time (icount) above, emulation time (TCG) below.
load 'plots/style.gp'
if (fmt eq 'png') set terminal pngcairo size 1200,1100 font 'DejaVu Sans,10' noenhanced
if (fmt eq 'svg') set terminal svg size 1200,1100 font 'DejaVu Sans,10' noenhanced
set output out
set logscale y
set yrange [floor_ms*0.5:1e7]
set ytics ('1 us' 0.001, '0.1 ms' 0.1, '10 ms' 10, '1 s' 1000, '100 s' 1e5)
set multiplot layout npanels,1 title "Linux ".bases_title.": the first /dev/urandom read returned\n".caption
do for [p=0:npanels-1] {
	dat = datadir.sprintf('/bases_%d.dat', p)
	n = value(sprintf('ngroups_%d', p))
	set xtics () rotate by -30 font ',7'
	do for [i=0:n-1] { set xtics add (value(sprintf('g%d_%d', p, i)) i*(nbases+1)+0.5*(nbases-1)) }
	set xrange [-1:n*(nbases+1)-1]
	set title value(sprintf('panel_%d', p)).': guest ms from kernel start (log)'
	set ylabel 'ms: the first read returned'
	if (p == 0) { set key inside left top opaque box font ',8' } else { unset key }
	eval 'plot '.value(sprintf('bases_%d', p)).", 750 with lines dt 3 lc rgb '#aa0000' title '750 ms: the complaint'"
}
unset multiplot
